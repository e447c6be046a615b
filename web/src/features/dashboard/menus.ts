import {
  Award,
  ChartBar,
  BookOpen,
  Compass,
  FileText,
  Globe,
  KeyRound,
  LayoutDashboard,
  Mail,
  CirclePlus,
  Plug,
  Settings,
  User,
  UserRound,
  Users,
  UsersRound,
  type LucideIcon,
} from 'lucide-react';
import type { Role } from '@/lib/roles.ts';

/** A sidebar entry (SPEC.md section 3, "Sidebar menu item"). */
export interface MenuItem {
  title: string;
  url: string;
  icon: LucideIcon;
}

// Titles exactly as SPEC.md section 2 lists them, lower-case ones included.
const menus: Record<Role, MenuItem[]> = {
  admin: [
    { title: 'Dashboard', url: '/dashboard/admin', icon: LayoutDashboard },
    { title: 'analytics', url: '/dashboard/admin/analytics', icon: ChartBar },
    { title: 'users', url: '/dashboard/admin/users', icon: Users },
    { title: 'Email Campaigns', url: '/dashboard/admin/emails', icon: Mail },
    { title: 'courses', url: '/dashboard/admin/courses', icon: BookOpen },
    { title: 'settings', url: '/dashboard/admin/settings', icon: Settings },
  ],
  creator: [
    { title: 'Dashboard', url: '/dashboard/creator', icon: LayoutDashboard },
    { title: 'My Courses', url: '/dashboard/creator/courses', icon: BookOpen },
    { title: 'Create Course', url: '/dashboard/creator/create', icon: CirclePlus },
    { title: 'Landing Page', url: '/dashboard/creator/landing', icon: Globe },
    { title: 'crm', url: '/dashboard/creator/crm', icon: UsersRound },
    { title: 'integrations', url: '/dashboard/creator/integrations', icon: Plug },
    { title: 'analytics', url: '/dashboard/creator/analytics', icon: ChartBar },
    { title: 'profile', url: '/dashboard/creator/profile', icon: User },
  ],
  leader: [
    { title: 'Dashboard', url: '/dashboard/leader', icon: LayoutDashboard },
    { title: 'My Groups', url: '/dashboard/leader/groups', icon: Users },
    { title: 'licenses', url: '/dashboard/leader/licenses', icon: KeyRound },
    { title: 'reports', url: '/dashboard/leader/reports', icon: FileText },
    { title: 'settings', url: '/dashboard/leader/settings', icon: Settings },
  ],
  learner: [
    { title: 'Dashboard', url: '/dashboard/learner', icon: LayoutDashboard },
    { title: 'courses', url: '/dashboard/learner/courses', icon: BookOpen },
    { title: 'browse', url: '/dashboard/learner/browse', icon: Compass },
    { title: 'certificates', url: '/dashboard/learner/certificates', icon: Award },
    { title: 'profile', url: '/dashboard/learner/profile', icon: UserRound },
  ],
};

/** The role's sidebar menu; an unknown role gets none. */
export function menuFor(role: string | null | undefined): MenuItem[] {
  return role && Object.hasOwn(menus, role) ? menus[role as Role] : [];
}

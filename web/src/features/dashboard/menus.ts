import {
  Award,
  ChartBar,
  Code2,
  BookOpen,
  Compass,
  FileText,
  Handshake,
  Globe,
  KeyRound,
  LifeBuoy,
  LayoutDashboard,
  Mail,
  Palette,
  CirclePlus,
  ClipboardCheck,
  Plug,
  ScrollText,
  Settings,
  MailPlus,
  Package,
  Repeat,
  TicketPercent,
  User,
  UserRound,
  Users,
  UsersRound,
  type LucideIcon,
} from 'lucide-react';
import type { FeatureKey } from '@contracts/entitlements.ts';
import { paths } from '@/lib/paths.ts';
import type { Role } from '@/lib/roles.ts';

/** A sidebar entry (SPEC.md section 3, "Sidebar menu item"). */
export interface MenuItem {
  title: string;
  url: string;
  icon: LucideIcon;
  /** The plan feature the page is for (issue 29): without it the entry shows the lock and 'Pro'; the page says why. */
  feature?: FeatureKey;
}

// Titles exactly as SPEC.md section 2 lists them, lower-case ones included.
const menus: Record<Role, MenuItem[]> = {
  admin: [
    { title: 'Dashboard', url: paths.admin.dashboard, icon: LayoutDashboard },
    { title: 'analytics', url: paths.admin.analytics, icon: ChartBar },
    { title: 'users', url: paths.admin.users, icon: Users },
    { title: 'Email Campaigns', url: paths.admin.emails, icon: Mail },
    { title: 'courses', url: paths.admin.courses, icon: BookOpen },
    { title: 'settings', url: paths.admin.settings, icon: Settings },
  ],
  creator: [
    { title: 'Dashboard', url: paths.creator.dashboard, icon: LayoutDashboard },
    { title: 'My Courses', url: paths.creator.courses, icon: BookOpen },
    { title: 'Create Course', url: paths.creator.create, icon: CirclePlus },
    { title: 'Landing Page', url: paths.creator.landing, icon: Globe },
    { title: 'crm', url: paths.creator.crm, icon: UsersRound },
    { title: 'integrations', url: paths.creator.integrations, icon: Plug },
    { title: 'analytics', url: paths.creator.analytics, icon: ChartBar },
    { title: 'profile', url: paths.creator.profile, icon: User },
  ],
  leader: [
    { title: 'Dashboard', url: paths.leader.dashboard, icon: LayoutDashboard },
    { title: 'My Groups', url: paths.leader.groups, icon: Users },
    { title: 'licenses', url: paths.leader.licenses, icon: KeyRound },
    { title: 'reports', url: paths.leader.reports, icon: FileText },
    { title: 'settings', url: paths.leader.settings, icon: Settings },
  ],
  learner: [
    { title: 'Dashboard', url: paths.learner.dashboard, icon: LayoutDashboard },
    { title: 'courses', url: paths.learner.courses, icon: BookOpen },
    { title: 'browse', url: paths.learner.browse, icon: Compass },
    { title: 'certificates', url: paths.learner.certificates, icon: Award },
    { title: 'profile', url: paths.learner.profile, icon: UserRound },
  ],
};

/** The role's sidebar menu; an unknown role gets none. */
export function menuFor(role: string | null | undefined): MenuItem[] {
  return role && Object.hasOwn(menus, role) ? menus[role as Role] : [];
}

/** A titled group of the sidebar: SPEC.md's menu is 'Navigation'; later tools sit in groups of their own below it. */
export interface MenuGroup {
  label: string;
  items: MenuItem[];
}

// Teaching beside the courses (issue 35 point 2): the assignments learners handed in, to grade. Every plan with courses.
const courses: Partial<Record<Role, MenuItem[]>> = {
  creator: [{ title: 'Submissions', url: paths.creator.submissions, icon: ClipboardCheck }],
};

// Entries beyond SPEC.md's menus, grouped under their own heading (issue 12: Coupons under Marketing; issue 34: Bundles and Memberships; then Affiliates;
// issue 29: Reports under Insights).
const marketing: Partial<Record<Role, MenuItem[]>> = {
  creator: [
    { title: 'Coupons', url: paths.creator.coupons, icon: TicketPercent },
    { title: 'Bundles', url: paths.creator.bundles, icon: Package },
    { title: 'Memberships', url: paths.creator.memberships, icon: Repeat, feature: 'memberships' },
    { title: 'Sequences', url: paths.creator.sequences, icon: MailPlus },
    { title: 'Affiliates', url: paths.creator.affiliates, icon: Handshake, feature: 'affiliates' },
  ],
};

const insights: Partial<Record<Role, MenuItem[]>> = {
  creator: [{ title: 'Reports', url: paths.creator.reports, icon: FileText, feature: 'detailedReports' }],
  // Issue 37 point 3: every admin action on record.
  admin: [{ title: 'Audit', url: paths.admin.audit, icon: ScrollText }],
};

// Developers (issue 31): API keys and webhooks.
const developers: Partial<Record<Role, MenuItem[]>> = {
  creator: [{ title: 'Developers', url: paths.creator.developers, icon: Code2, feature: 'api' }],
};

// Your school (issue 32): how the creator's storefront looks, and where it answers.
const school: Partial<Record<Role, MenuItem[]>> = {
  creator: [
    { title: 'Branding', url: paths.creator.branding, icon: Palette, feature: 'branding' },
    { title: 'Domains', url: paths.creator.domains, icon: Globe, feature: 'customDomains' },
  ],
};

// Help (issue 29 point 4): a creator's Support page, the admin's Support inbox.
const help: Partial<Record<Role, MenuItem[]>> = {
  creator: [{ title: 'Support', url: paths.creator.support, icon: LifeBuoy }],
  admin: [{ title: 'Support', url: paths.admin.support, icon: LifeBuoy }],
};

const extraOf = (groups: Partial<Record<Role, MenuItem[]>>, role: string | null | undefined): MenuItem[] =>
  role && Object.hasOwn(groups, role) ? (groups[role as Role] ?? []) : [];

/** The role's sidebar groups, in order, each with at least one entry: 'Navigation' (menuFor), 'Courses', 'Marketing', 'Insights', 'Developers', 'School', 'Help'. */
export function menuGroupsFor(role: string | null | undefined): MenuGroup[] {
  return [
    { label: 'Navigation', items: menuFor(role) },
    { label: 'Courses', items: extraOf(courses, role) },
    { label: 'Marketing', items: extraOf(marketing, role) },
    { label: 'Insights', items: extraOf(insights, role) },
    { label: 'Developers', items: extraOf(developers, role) },
    { label: 'School', items: extraOf(school, role) },
    { label: 'Help', items: extraOf(help, role) },
  ].filter((group) => group.items.length > 0);
}

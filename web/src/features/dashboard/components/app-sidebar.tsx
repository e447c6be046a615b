import { GraduationCap } from 'lucide-react';
import { Link, useMatch } from 'react-router-dom';
import {
  Sidebar,
  SidebarContent,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
} from '@/components/ui/sidebar.tsx';
import { ProBadge } from '@/components/plan-gate.tsx';
import { isRole, roleLabels } from '@/lib/roles.ts';
import type { FeatureKey } from '@contracts/entitlements.ts';
import { menuGroupsFor, type MenuItem } from '../menus.ts';

export const PRODUCT_NAME = 'Course Platform';

/**
 * The shell's sidebar: the product name and the user's role, then the role's menu under 'Navigation' and any further
 * groups (a creator's 'Marketing'), each a landmark named by its heading. An entry whose plan feature is `locked`
 * shows the lock and 'Pro' (issue 29); it still opens its page, which says why and offers the upgrade.
 */
export function AppSidebar({ role, locked = () => false }: { role: string; locked?: (feature: FeatureKey) => boolean }) {
  const groups = menuGroupsFor(role);
  const roleLabel = isRole(role) ? roleLabels[role] : role;

  return (
    <Sidebar label={`${PRODUCT_NAME} navigation`}>
      <SidebarHeader>
        <div className="flex items-center gap-2 px-1 py-1.5 group-data-[collapsible=icon]:px-0">
          <span aria-hidden="true" className="grid size-8 shrink-0 place-items-center rounded-lg bg-primary text-primary-foreground">
            <GraduationCap className="size-4" />
          </span>
          <div className="grid min-w-0 leading-tight group-data-[collapsible=icon]:sr-only">
            <p className="truncate text-sm font-semibold" data-testid="sidebar-title">
              {PRODUCT_NAME}
            </p>
            <p className="truncate text-xs text-muted-foreground" data-testid="sidebar-role">
              {roleLabel}
            </p>
          </div>
        </div>
      </SidebarHeader>
      <SidebarContent>
        {groups.map((group, groupIndex) => {
          const labelId = `sidebar-${group.label.toLowerCase()}-label`;
          return (
            <SidebarGroup key={group.label}>
              <SidebarGroupLabel id={labelId}>{group.label}</SidebarGroupLabel>
              <nav aria-labelledby={labelId}>
                <SidebarMenu>
                  {group.items.map((item, index) => (
                    <SidebarMenuItem key={item.url}>
                      {/* The first entry is the role's dashboard: active only on its own page, not on every page below it. */}
                      <MenuLink item={item} end={groupIndex === 0 && index === 0} locked={item.feature !== undefined && locked(item.feature)} />
                    </SidebarMenuItem>
                  ))}
                </SidebarMenu>
              </nav>
            </SidebarGroup>
          );
        })}
      </SidebarContent>
    </Sidebar>
  );
}

function MenuLink({ item: { title, url, icon: Icon }, end, locked }: { item: MenuItem; end: boolean; locked: boolean }) {
  const active = useMatch({ path: url, end }) !== null;
  return (
    <SidebarMenuButton asChild isActive={active} tooltip={locked ? `${title} (Pro)` : title}>
      <Link to={url} aria-current={active ? 'page' : undefined}>
        <Icon aria-hidden="true" />
        <SidebarLabel>{title}</SidebarLabel>
        {/* The space keeps the name 'Affiliates Pro' (a flex container renders no blank text). */}
        {locked && ' '}
        {locked && <ProBadge className="ml-auto group-data-[collapsible=icon]:hidden" />}
      </Link>
    </SidebarMenuButton>
  );
}

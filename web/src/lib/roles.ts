import type { Role } from '@contracts/common.ts';

export type { Role };

// Zod-free on purpose: the router's guards use this module, and it sits in the initial chunk.
const dashboardPaths: Record<Role, string> = {
  admin: '/dashboard/admin',
  creator: '/dashboard/creator',
  leader: '/dashboard/leader',
  learner: '/dashboard/learner',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && Object.hasOwn(dashboardPaths, value);
}

/** Each role's home: where `/`, `/dashboard` and a guard refusing a role send a signed-in user. */
export function dashboardPathFor(role: Role): string {
  return dashboardPaths[role];
}

/** How a role is named to people (the sidebar title, the header). */
export const roleLabels: Record<Role, string> = {
  admin: 'Admin',
  creator: 'Creator',
  leader: 'Group Leader',
  learner: 'Learner',
};

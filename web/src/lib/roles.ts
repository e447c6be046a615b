import type { Role } from '@contracts/common.ts';
import { paths } from './paths.ts';

export type { Role };

// Zod-free on purpose: the router's guards use this module, and it sits in the initial chunk.

/** How a role is named to people (the sidebar title, the header). */
export const roleLabels: Record<Role, string> = {
  admin: 'Admin',
  creator: 'Creator',
  leader: 'Group Leader',
  learner: 'Learner',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && Object.hasOwn(roleLabels, value);
}

/** Each role's home: where `/`, `/dashboard` and a guard refusing a role send a signed-in user. */
export function dashboardPathFor(role: Role): string {
  return paths[role].dashboard;
}

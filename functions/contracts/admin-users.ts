import * as z from 'zod';
import { isoDate, roleSchema } from './common.ts';

/** User management (SPEC.md admin "users"; docs/api.md): the accounts of one role, newest first, and invitations. */

export const USERS_PAGE_SIZE = 25;

/** `disabled`: the account cannot sign in (an admin turned it off); its data and counters stay. */
export const adminUser = z.object({ id: z.string(), email: z.string(), role: roleSchema, createdAt: isoDate, disabled: z.boolean() });
export type AdminUser = z.infer<typeof adminUser>;

/** GET /api/admin/users: one page; `nextCursor` null on the last. */
export const adminUserList = z.object({ items: z.array(adminUser), nextCursor: z.string().nullable() });
export type AdminUserList = z.infer<typeof adminUserList>;

/** `role` defaults to creator: users are listed one role at a time (an index per role, never a scan). */
export const adminUsersQuery = z.object({ role: roleSchema.default('creator'), cursor: z.string().min(1).max(2048).optional() });

/** POST /api/admin/users: the account is created with a temporary password and invited by email. */
export const createUserBody = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.')),
  role: roleSchema,
});
export type CreateUserBody = z.infer<typeof createUserBody>;

/** The roles an admin may move an account between: a creator's courses and subscription belong to that role. */
export const assignableRoles = ['admin', 'leader', 'learner'] as const;

/**
 * PATCH /api/admin/users/{userId}: disable an account (it cannot sign in; its sessions end) or enable it again, and/or
 * move it to another role (among `assignableRoles`).
 */
export const updateUserBody = z
  .strictObject({ disabled: z.boolean().optional(), role: z.enum(assignableRoles).optional() })
  .refine((body) => body.disabled !== undefined || body.role !== undefined, { message: 'Send disabled, role or both.' });
export type UpdateUserBody = z.infer<typeof updateUserBody>;

/** The role filter's and the role column's words. */
export const roleNames: Record<z.infer<typeof roleSchema>, string> = {
  admin: 'Admin',
  creator: 'Creator',
  leader: 'Group leader',
  learner: 'Learner',
};

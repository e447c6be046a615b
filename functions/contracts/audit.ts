import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * The admin audit log (issue 37 point 3; docs/api.md "Audit log"): one line per admin action, written with the action
 * itself, never edited, deleted by the table's TTL after AUDIT_RETENTION_DAYS (a year and a bit: "at least a year").
 */

export const AUDIT_PAGE_SIZE = 25;
export const AUDIT_RETENTION_DAYS = 400;

/** `account-deleted`: the account deletion job (issue 37 point 2), the person as actor and target. */
export const auditActions = ['account-created', 'role-changed', 'account-disabled', 'account-enabled', 'campaign-sent', 'support-replied', 'account-deleted'] as const;
export const auditAction = z.enum(auditActions);
export type AuditAction = z.infer<typeof auditAction>;

/** The filter's and the action column's words. */
export const auditActionNames: Record<AuditAction, string> = {
  'account-created': 'Account created',
  'role-changed': 'Role changed',
  'account-disabled': 'Account disabled',
  'account-enabled': 'Account enabled',
  'campaign-sent': 'Campaign sent',
  'support-replied': 'Support reply',
  'account-deleted': 'Account deleted',
};

/** The admin who acted, as they were at the time (their email is kept: the account may change or go later). */
export const auditActor = z.object({ id: z.string(), email: z.string() });
export type AuditActor = z.infer<typeof auditActor>;

/** What the action was done to: an account (id and email), a campaign or a support request (id). */
export const auditTarget = z.object({ kind: z.enum(['user', 'campaign', 'support-request']), id: z.string(), email: z.string().optional() });
export type AuditTarget = z.infer<typeof auditTarget>;

/** `details`: a few words of what changed (a role change's `from` and `to`, a campaign's `subject`). */
export const auditEntry = z.object({
  at: isoDate,
  actor: auditActor,
  action: auditAction,
  target: auditTarget,
  details: z.record(z.string(), z.string()).optional(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** GET /api/admin/audit: one page, newest first; `nextCursor` null on the last. */
export const auditPage = z.object({ items: z.array(auditEntry), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPage>;

/** `action` narrows the log to one kind of action (its own index partition, never a filter over every line). */
export const auditQuery = z.object({ action: auditAction.optional(), cursor: z.string().min(1).max(2048).optional() });

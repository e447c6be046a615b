import { AUDIT_PAGE_SIZE, type AuditAction, type AuditActor, type AuditPage, type AuditTarget } from '#contracts/audit.ts';
import type { AuditLine, AuditLog } from '#core/audit-line.ts';
import type { Clock, Ids } from '#core/ports.ts';

/**
 * The admin audit log (issue 37 point 3). A line is never written on its own: the use case that acts builds it here
 * and hands it to the repository that writes the action, which puts it in the action's own transaction (users,
 * campaigns, support), so a line exists exactly when the action happened. There is no way to change or delete a line
 * (no route, no repository method); the table's TTL removes it after AUDIT_RETENTION_DAYS.
 */

/** A line of `action` by `actor` on `target`, now; `id` defaults to a new one (a campaign's line takes the campaign's). */
export const auditLine = (
  deps: { clock: Clock; ids: Ids },
  input: { actor: AuditActor; action: AuditAction; target: AuditTarget; details?: Record<string, string>; id?: string; at?: string },
): AuditLine => ({
  id: input.id ?? deps.ids.newId(),
  at: input.at ?? deps.clock.now().toISOString(),
  actor: input.actor,
  action: input.action,
  target: input.target,
  ...(input.details ? { details: input.details } : {}),
});

/** GET /api/admin/audit: one page, newest first, optionally of one action; the answer carries no storage ids. */
export const listAudit = async (deps: { audit: AuditLog }, query: { action?: AuditAction | undefined; cursor?: string | undefined }): Promise<AuditPage> => {
  const page = await deps.audit.page({ action: query.action, cursor: query.cursor, limit: AUDIT_PAGE_SIZE });
  return { items: page.items.map(({ id: _id, ...entry }) => entry), nextCursor: page.nextCursor };
};

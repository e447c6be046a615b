import type { AuditAction, AuditEntry } from '#contracts/audit.ts';

/**
 * An admin audit line as stored, and the log's reading port (issue 37 point 3): here, at core's root, because the
 * repositories of every domain an admin acts in (users, campaigns, support) take a line to write with their action.
 * The use cases build lines with core/admin/audit.ts.
 */

/** A line as stored: `id` keeps two lines of the same millisecond apart (and makes a retried put a no-op). */
export type AuditLine = AuditEntry & { id: string };

export interface AuditLog {
  /** One page, newest first, of every line or of one action's. */
  page(input: { action: AuditAction | undefined; cursor: string | undefined; limit: number }): Promise<{ items: AuditLine[]; nextCursor: string | null }>;
}

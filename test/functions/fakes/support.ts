import type { AuditLine } from '#core/audit-line.ts';
import { ValidationError } from '#core/errors.ts';
import type { QueuedMail } from '#core/ports.ts';
import type { StoredSupportRequest, SupportRepository } from '#core/support/ports.ts';
import { copy, withHooks } from './hooks.ts';

/**
 * Support requests in memory, with the rules of functions/data/support.ts: a request once per id, the creator's day
 * quota taken with it, the creator's list newest first, the inbox priority first then oldest first, and a reply only
 * while the request is open and holds the replies its writer read, its email queued with it.
 */
export const memorySupport = (mailQueue?: { write(mail: QueuedMail): Promise<void> }) => {
  const requests = new Map<string, StoredSupportRequest>();
  const days = new Map<string, number>();
  /** The admins' audit lines, written only with a reply that was. */
  const audit: AuditLine[] = [];
  const page = (all: StoredSupportRequest[], cursor: string | undefined, limit: number) => {
    const from = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(from) || from < 0) throw new ValidationError('The cursor is not valid. Start again from the first page.');
    return { items: all.slice(from, from + limit).map(copy), nextCursor: from + limit < all.length ? String(from + limit) : null };
  };
  const repo = withHooks<SupportRepository>({
    async create(request, quota) {
      if (requests.has(request.id)) return 'exists';
      const key = `${request.creatorId}#${quota.day}`;
      const taken = days.get(key) ?? 0;
      if (taken >= quota.cap) return 'rate-limited';
      days.set(key, taken + 1);
      requests.set(request.id, copy(request));
      return 'created';
    },
    async get(requestId) {
      const request = requests.get(requestId);
      return request && copy(request);
    },
    async pageByCreator(creatorId, { cursor, limit }) {
      const all = [...requests.values()].filter((r) => r.creatorId === creatorId).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
      return page(all, cursor, limit);
    },
    async pageByStatus(status, { cursor, limit }) {
      const rank = (r: StoredSupportRequest) => `${r.priority === 'priority' ? 0 : 1}#${r.createdAt}#${r.id}`;
      const all = [...requests.values()].filter((r) => r.status === status).sort((a, b) => rank(a).localeCompare(rank(b)));
      return page(all, cursor, limit);
    },
    async reply({ requestId, seenReplies, reply, closedAt, email, audit: line }) {
      const request = requests.get(requestId);
      if (!request || request.status !== 'open' || request.replies.length !== seenReplies) return 'changed';
      request.replies.push(copy(reply));
      if (closedAt !== undefined) Object.assign(request, { status: 'closed', closedAt });
      if (email) await mailQueue?.write(email);
      if (line) audit.push(copy(line));
      return 'replied';
    },
  });
  return Object.assign(repo, { requests, days, audit });
};

import type { Paged } from '#contracts/common.ts';
import type { SupportPriority, SupportStatus } from '#contracts/support.ts';
import type { AuditLine } from '#core/audit-line.ts';
import type { QueuedMail } from '#core/ports.ts';

/** Ports of the support requests (core/support/support.ts); only this area uses them. */

/** A reply as stored: who wrote it (`support`: an admin, `by` their id; `you`: the creator). */
export interface StoredSupportReply {
  id: string;
  body: string;
  at: string;
  from: 'support' | 'you';
  by: string;
}

/** A support request as stored, its replies in it (at most SUPPORT_REPLIES_MAX). */
export interface StoredSupportRequest {
  id: string;
  creatorId: string;
  /** The creator's address when they asked (what the inbox shows; the reply goes to their address of the day). */
  creatorEmail: string;
  subject: string;
  body: string;
  status: SupportStatus;
  /** Fixed when the request is made: `priority` while the creator's plan included prioritySupport. */
  priority: SupportPriority;
  createdAt: string;
  closedAt: string | null;
  replies: StoredSupportReply[];
}

export interface SupportRepository {
  /**
   * One transaction: the request (once per id: 'exists' when a retry finds it) and one of the creator's `cap` requests
   * of `day` (YYYY-MM-DD, UTC) taken by a conditional counter ('rate-limited' when all are taken; nothing written).
   */
  create(request: StoredSupportRequest, quota: { day: string; cap: number }): Promise<'created' | 'exists' | 'rate-limited'>;
  get(requestId: string): Promise<StoredSupportRequest | undefined>;
  /** One page of a creator's requests, newest first; a cursor this listing did not hand out is a ValidationError. */
  pageByCreator(creatorId: string, page: { cursor?: string | undefined; limit: number }): Promise<Paged<StoredSupportRequest>>;
  /** One page of the requests of a status: priority first, then oldest first (one index Query). */
  pageByStatus(status: SupportStatus, page: { cursor?: string | undefined; limit: number }): Promise<Paged<StoredSupportRequest>>;
  /**
   * One transaction: the reply appended (closing the request with `closedAt` when given), only while the request is
   * open and still holds `seenReplies` replies, and the email that announces it (support's replies; a creator's own
   * follow-up has none) put in the mail queue, with `audit` (support's replies: the admin's audit line). 'changed' when the request moved meanwhile (nothing written).
   */
  reply(input: { requestId: string; seenReplies: number; reply: StoredSupportReply; closedAt?: string; email?: QueuedMail; audit?: AuditLine }): Promise<'replied' | 'changed'>;
}

import type { AuditActor } from '#contracts/audit.ts';
import { hasFeature } from '#contracts/entitlements.ts';
import {
  SUPPORT_PAGE_SIZE,
  SUPPORT_REPLIES_MAX,
  SUPPORT_REQUESTS_PER_DAY,
  type AdminSupportList,
  type AdminSupportRequest,
  type CreatedSupportRequest,
  type CreateSupportRequestBody,
  type SupportFollowUpBody,
  type SupportReplyBody,
  type SupportRequest,
  type SupportRequestList,
  type SupportStatus,
} from '#contracts/support.ts';
import { auditLine } from '#core/admin/audit.ts';
import { creatorPlanOf } from '#core/billing/subscription-state.ts';
import { AppError, ConflictError, NotFoundError } from '#core/errors.ts';
import { heldMail, sendHeld, type MailLaterDeps } from '#core/mail/mail-queue.ts';
import type { BillingRepository, Clock, Ids, UserRepository } from '#core/ports.ts';
import type { StoredSupportRequest, SupportRepository } from '#core/support/ports.ts';
import { supportReplyEmail } from '#core/support/support-email.ts';

/**
 * Priority support (issue 29 point 4; docs/api.md "Support"): a creator's requests and their threads, the admin's
 * inbox (priority first, then oldest first), and the admin's reply, emailed to the creator with a link to their
 * Support page through the mail queue (written with the reply, sent by this request, by the mail sender if it dies).
 */

export const SUPPORT_REQUEST_NOT_FOUND = 'Support request not found.';
export const SUPPORT_REQUEST_CLOSED = 'This request is closed. The creator can open a new one.';
export const SUPPORT_THREAD_FULL = `This request has ${SUPPORT_REPLIES_MAX} replies, the most one request holds: close it, and the creator can open a new one.`;
export const SUPPORT_REQUEST_CLOSED_FOR_YOU = 'This request is closed. Open a new request to ask again.';
export const SUPPORT_THREAD_FULL_FOR_YOU = `This request has ${SUPPORT_REPLIES_MAX} messages, the most one request holds. Open a new request to go on.`;
export const SUPPORT_REQUEST_CHANGED = 'This request changed while you were replying: reload it and try again.';
export const supportRateLimitMessage = (): string =>
  `You have opened ${SUPPORT_REQUESTS_PER_DAY} support requests today, the most for one day. We will answer those; try again tomorrow for anything new.`;
/** Where the reply's email leads: the creator's Support page (web/src/lib/paths.ts `paths.creator.support`). */
export const SUPPORT_PAGE_PATH = '/dashboard/creator/support';

const threadView = (request: StoredSupportRequest): SupportRequest => ({
  id: request.id,
  subject: request.subject,
  body: request.body,
  status: request.status,
  priority: request.priority,
  createdAt: request.createdAt,
  closedAt: request.closedAt,
  replies: request.replies.map((r) => ({ body: r.body, at: r.at, from: r.from })),
});

const adminView = (request: StoredSupportRequest): AdminSupportRequest => ({ ...threadView(request), creatorId: request.creatorId, creatorEmail: request.creatorEmail });

export interface CreateSupportRequestDeps {
  support: Pick<SupportRepository, 'create' | 'get'>;
  billing: Pick<BillingRepository, 'getSubscription'>;
  users: Pick<UserRepository, 'getUser'>;
  clock: Clock;
  ids: Ids;
  /** The request's id for a client's Idempotency-Key (the same key of the same creator: the same id). */
  requestIdFor: (creatorId: string, key: string) => string;
}

/**
 * POST /api/support/requests: the request, `priority` when the creator's plan includes prioritySupport now (Pro),
 * else `standard` (Starter, a trial, and a creator without a plan all get help). One of the creator's
 * SUPPORT_REQUESTS_PER_DAY requests of the day is taken with it (429 past them). With an Idempotency-Key, a retry
 * answers the request the first try made and takes nothing more.
 */
export const createSupportRequest = async (
  deps: CreateSupportRequestDeps,
  input: { creatorId: string; body: CreateSupportRequestBody; idempotencyKey?: string | undefined },
): Promise<CreatedSupportRequest> => {
  const [plan, user] = await Promise.all([creatorPlanOf(deps, input.creatorId), deps.users.getUser(input.creatorId)]);
  const now = deps.clock.now().toISOString();
  const request: StoredSupportRequest = {
    id: input.idempotencyKey ? deps.requestIdFor(input.creatorId, input.idempotencyKey) : deps.ids.newId(),
    creatorId: input.creatorId,
    creatorEmail: user?.email ?? '',
    subject: input.body.subject,
    body: input.body.body,
    status: 'open',
    priority: hasFeature(plan, 'prioritySupport') ? 'priority' : 'standard',
    createdAt: now,
    closedAt: null,
    replies: [],
  };
  const outcome = await deps.support.create(request, { day: now.slice(0, 10), cap: SUPPORT_REQUESTS_PER_DAY });
  if (outcome === 'rate-limited') throw new AppError('RATE_LIMITED', supportRateLimitMessage());
  const made = outcome === 'exists' ? await deps.support.get(request.id) : request;
  // The same key with another subject or message is another intent (409, as every keyed route answers it).
  if (!made || made.creatorId !== input.creatorId || made.subject !== request.subject || made.body !== request.body) {
    throw new ConflictError('This Idempotency-Key was used for another request.');
  }
  return { id: made.id, subject: made.subject, status: made.status, priority: made.priority, createdAt: made.createdAt };
};

/** GET /api/support/requests?cursor=: the creator's own requests with their replies, newest first, a page at a time. */
export const listSupportRequests = async (
  deps: { support: Pick<SupportRepository, 'pageByCreator'> },
  creatorId: string,
  cursor?: string | undefined,
): Promise<SupportRequestList> => {
  const page = await deps.support.pageByCreator(creatorId, { cursor, limit: SUPPORT_PAGE_SIZE });
  return { items: page.items.map(threadView), nextCursor: page.nextCursor };
};

/** GET /api/admin/support?status=&cursor=: the inbox, priority first, then oldest first. */
export const adminSupportInbox = async (
  deps: { support: Pick<SupportRepository, 'pageByStatus'> },
  query: { status: SupportStatus; cursor?: string | undefined },
): Promise<AdminSupportList> => {
  const page = await deps.support.pageByStatus(query.status, { cursor: query.cursor, limit: SUPPORT_PAGE_SIZE });
  return { items: page.items.map(adminView), nextCursor: page.nextCursor };
};

export interface ReplySupportDeps extends MailLaterDeps {
  support: Pick<SupportRepository, 'get' | 'reply'>;
  users: Pick<UserRepository, 'getUser'>;
  appOrigin: string;
  /** A reply's id for a client's Idempotency-Key (the same key on the same request: the same id). */
  replyIdFor: (requestId: string, key: string) => string;
}

/**
 * POST /api/admin/support/{requestId}/replies: the reply (and with `close`, the request closed) written with its email
 * to the creator in one transaction, then the email sent (one that fails goes with the mail sender job). 404 for no
 * such request; 409 when it is closed, full, or changed meanwhile. The answer is the request as it now stands. With an
 * Idempotency-Key, a retry of a reply that was written answers the request and writes and sends nothing again.
 * The admin's `support-replied` audit line (named by the reply) is written in the reply's transaction.
 */
export const replySupportRequest = async (
  deps: ReplySupportDeps,
  input: { actor: AuditActor; requestId: string; body: SupportReplyBody; idempotencyKey?: string | undefined },
): Promise<AdminSupportRequest> => {
  const request = await deps.support.get(input.requestId);
  if (!request) throw new NotFoundError(SUPPORT_REQUEST_NOT_FOUND);
  const replyId = input.idempotencyKey ? deps.replyIdFor(request.id, input.idempotencyKey) : deps.ids.newId();
  // A retry of a reply that was written (its answer lost): the request as it stands, nothing written or sent again
  // (its email was queued with it).
  if (request.replies.some((r) => r.id === replyId)) return adminView(request);
  if (request.status === 'closed') throw new ConflictError(SUPPORT_REQUEST_CLOSED);
  if (request.replies.length >= SUPPORT_REPLIES_MAX) throw new ConflictError(SUPPORT_THREAD_FULL);
  const at = deps.clock.now().toISOString();
  const reply = { id: replyId, body: input.body.body, at, from: 'support' as const, by: input.actor.id };
  const closed = input.body.close === true;
  // The reply goes to the creator's address of today (they may have changed it since they asked).
  const to = (await deps.users.getUser(request.creatorId))?.email ?? request.creatorEmail;
  const link = `${new URL(deps.appOrigin).origin}${SUPPORT_PAGE_PATH}`;
  const email = heldMail(deps, { to, ...supportReplyEmail({ subject: request.subject, reply: reply.body, closed, link }) });
  const audit = auditLine(deps, {
    id: replyId,
    at,
    actor: input.actor,
    action: 'support-replied',
    target: { kind: 'support-request', id: request.id, email: request.creatorEmail },
    details: { subject: request.subject, ...(closed ? { closed: 'yes' } : {}) },
  });
  const outcome = await deps.support.reply({ requestId: request.id, seenReplies: request.replies.length, reply, ...(closed ? { closedAt: at } : {}), email, audit });
  if (outcome === 'changed') throw new ConflictError(SUPPORT_REQUEST_CHANGED);
  await sendHeld(deps, email, { email: 'support reply', requestId: request.id });
  return adminView({ ...request, replies: [...request.replies, reply], ...(closed ? { status: 'closed', closedAt: at } : {}) });
};

/**
 * POST /api/support/requests/{requestId}/replies: the creator adds a message to their own open request (`from: "you"`
 * in their thread; the inbox shows it under the request, which keeps its place). Another creator's request is 404;
 * a closed or full one, or one that changed meanwhile, 409. The answer is the request as it now stands.
 */
export const followUpSupportRequest = async (
  deps: { support: Pick<SupportRepository, 'get' | 'reply'>; clock: Clock; ids: Ids; replyIdFor: (requestId: string, key: string) => string },
  input: { creatorId: string; requestId: string; body: SupportFollowUpBody; idempotencyKey?: string | undefined },
): Promise<SupportRequest> => {
  const request = await deps.support.get(input.requestId);
  if (!request || request.creatorId !== input.creatorId) throw new NotFoundError(SUPPORT_REQUEST_NOT_FOUND);
  const replyId = input.idempotencyKey ? deps.replyIdFor(request.id, input.idempotencyKey) : deps.ids.newId();
  if (request.replies.some((r) => r.id === replyId)) return threadView(request);
  if (request.status === 'closed') throw new ConflictError(SUPPORT_REQUEST_CLOSED_FOR_YOU);
  if (request.replies.length >= SUPPORT_REPLIES_MAX) throw new ConflictError(SUPPORT_THREAD_FULL_FOR_YOU);
  const reply = { id: replyId, body: input.body.body, at: deps.clock.now().toISOString(), from: 'you' as const, by: input.creatorId };
  const outcome = await deps.support.reply({ requestId: request.id, seenReplies: request.replies.length, reply });
  if (outcome === 'changed') throw new ConflictError(SUPPORT_REQUEST_CHANGED);
  return threadView({ ...request, replies: [...request.replies, reply] });
};

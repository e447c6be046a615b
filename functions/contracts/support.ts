import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Support requests (issue 29 point 4; docs/api.md "Support"): a creator asks for help, an admin answers from the
 * Support inbox, and the answer is emailed to the creator. A request made while the creator's plan includes
 * `prioritySupport` (Pro) is `priority` for the rest of its life; any other creator's (Starter, a trial, or no plan at all)
 * is `standard`: everyone may ask for help.
 */
export const SUPPORT_SUBJECT_MAX = 200;
export const SUPPORT_BODY_MAX = 10_000;
/** Replies one request holds (they live in its item: a longer conversation is a new request). */
export const SUPPORT_REPLIES_MAX = 20;
/** Requests one creator may open per day (UTC); the next is 429 RATE_LIMITED. */
export const SUPPORT_REQUESTS_PER_DAY = 10;
/** Rows of one page of the creator's requests and of the admin's inbox. */
export const SUPPORT_PAGE_SIZE = 20;

export const supportStatuses = ['open', 'closed'] as const;
export const supportPriorities = ['priority', 'standard'] as const;
export type SupportStatus = (typeof supportStatuses)[number];
export type SupportPriority = (typeof supportPriorities)[number];

const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, `Write a ${what}.`)
    .max(max, `A ${what} is at most ${max.toLocaleString('en-GB')} characters.`);

/** POST /api/support/requests. */
export const createSupportRequestBody = z.strictObject({ subject: text(SUPPORT_SUBJECT_MAX, 'subject'), body: text(SUPPORT_BODY_MAX, 'message') });
export type CreateSupportRequestBody = z.infer<typeof createSupportRequestBody>;

/** POST /api/admin/support/{requestId}/replies: `close` also closes the request. */
export const supportReplyBody = z.strictObject({ body: text(SUPPORT_BODY_MAX, 'reply'), close: z.boolean().optional() });
export type SupportReplyBody = z.infer<typeof supportReplyBody>;

/** POST /api/support/requests/{requestId}/replies: the creator adds to their own open request. */
export const supportFollowUpBody = z.strictObject({ body: text(SUPPORT_BODY_MAX, 'message') });
export type SupportFollowUpBody = z.infer<typeof supportFollowUpBody>;

/** GET /api/admin/support?status=&cursor=. */
export const adminSupportQuery = z.strictObject({ status: z.enum(supportStatuses).default('open'), cursor: z.string().min(1).max(2000).optional() });

/** GET /api/support/requests?cursor=. */
export const supportRequestsQuery = z.strictObject({ cursor: z.string().min(1).max(2000).optional() });

/** 201 of POST /api/support/requests. */
export const createdSupportRequest = z.object({
  id: z.string(),
  subject: z.string(),
  status: z.enum(supportStatuses),
  priority: z.enum(supportPriorities),
  createdAt: isoDate,
});
export type CreatedSupportRequest = z.infer<typeof createdSupportRequest>;

/** A reply as the creator reads it: `support` (an admin) or `you` (the creator). */
export const supportReply = z.object({ body: z.string(), at: isoDate, from: z.enum(['support', 'you']) });
export type SupportReply = z.infer<typeof supportReply>;

/** One of the creator's requests, as a thread. */
export const supportRequest = createdSupportRequest.extend({
  body: z.string(),
  replies: z.array(supportReply),
  closedAt: isoDate.nullable(),
});
export type SupportRequest = z.infer<typeof supportRequest>;

/** GET /api/support/requests: newest first, a page at a time (`nextCursor` null on the last). */
export const supportRequestList = z.object({ items: z.array(supportRequest), nextCursor: z.string().nullable() });
export type SupportRequestList = z.infer<typeof supportRequestList>;

/** A request in the admin's inbox: who asked, and the thread. The age is `createdAt` (the screen shows it). */
export const adminSupportRequest = supportRequest.extend({ creatorId: z.string(), creatorEmail: z.string() });
export type AdminSupportRequest = z.infer<typeof adminSupportRequest>;

/** GET /api/admin/support: priority first, then oldest first. */
export const adminSupportList = z.object({ items: z.array(adminSupportRequest), nextCursor: z.string().nullable() });
export type AdminSupportList = z.infer<typeof adminSupportList>;

/** 201 of POST /api/admin/support/{requestId}/replies: the request as it stands after the reply. */
export const supportReplied = adminSupportRequest;

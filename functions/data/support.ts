import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import { supportPriorities, supportStatuses, type SupportStatus } from '#contracts/support.ts';
import type { StoredSupportRequest, SupportRepository } from '#core/support/ports.ts';
import { auditPut } from '#data/audit.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { documentClient, failedAt, indexPage, tableName, transact } from '#data/table.ts';

/**
 * Support requests (issue 29 point 4; docs/data-model.md "Support requests"):
 * Request:    pk SUPPORT#<requestId>  sk REQUEST     id, creatorId, creatorEmail, subject, body, status, priority,
 *                                                    createdAt, closedAt, replies: [{id, body, at, from, by}] (at most
 *                                                    SUPPORT_REPLIES_MAX: the thread is read with the request)
 *             gsi1pk CREATOR#<creatorId>#SUPPORT  gsi1sk <createdAt>#<requestId>          the creator's, newest first
 *             gsi2pk SUPPORT#<open|closed>        gsi2sk <0 priority|1 standard>#<createdAt>#<requestId>
 *                                                    the inbox: ascending, priority first, then oldest first; closing
 *                                                    moves the request to SUPPORT#closed in the reply's transaction
 * Day quota:  pk USER#<creatorId>  sk SUPPORTDAY#<YYYY-MM-DD>   n (requests opened that day, UTC; ADDed with the
 *                                                    request only while n < cap), expiresAt (TTL: two days after)
 * A reply is one transaction: the request updated (only while open and still holding the replies the writer read) and
 * its email put in the mail queue (data/mail-queue.ts), so the email goes exactly when the reply is written.
 */
export const supportKeys = {
  request: (requestId: string) => ({ pk: `SUPPORT#${requestId}`, sk: 'REQUEST' }),
  byCreator: (creatorId: string, createdAt: string, requestId: string) => ({ gsi1pk: `CREATOR#${creatorId}#SUPPORT`, gsi1sk: `${createdAt}#${requestId}` }),
  inbox: (status: SupportStatus, priority: StoredSupportRequest['priority'], createdAt: string, requestId: string) => ({
    gsi2pk: `SUPPORT#${status}`,
    gsi2sk: `${priority === 'priority' ? 0 : 1}#${createdAt}#${requestId}`,
  }),
  day: (creatorId: string, day: string) => ({ pk: `USER#${creatorId}`, sk: `SUPPORTDAY#${day}` }),
};

const replyItem = z.object({ id: z.string(), body: z.string(), at: isoDate, from: z.enum(['support', 'you']), by: z.string() });

const requestItem = z.object({
  id: z.string(),
  creatorId: z.string(),
  creatorEmail: z.string(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(supportStatuses),
  priority: z.enum(supportPriorities),
  createdAt: isoDate,
  closedAt: isoDate.nullable(),
  replies: z.array(replyItem),
}) satisfies z.ZodType<StoredSupportRequest>;

const toRequest = (item: Record<string, unknown>): StoredSupportRequest => requestItem.parse(item);

const DAY_S = 86_400;

export const dynamoSupport = (): SupportRepository => ({
  async create(request, quota) {
    const expiresAt = Math.floor(Date.parse(`${quota.day}T00:00:00.000Z`) / 1000) + 3 * DAY_S;
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...supportKeys.request(request.id),
            ...supportKeys.byCreator(request.creatorId, request.createdAt, request.id),
            ...supportKeys.inbox(request.status, request.priority, request.createdAt, request.id),
            type: 'SupportRequest',
            ...request,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: supportKeys.day(request.creatorId, quota.day),
          UpdateExpression: 'ADD n :one SET #type = :type, expiresAt = :exp',
          ConditionExpression: 'attribute_not_exists(n) OR n < :cap',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':one': 1, ':cap': quota.cap, ':type': 'SupportDay', ':exp': expiresAt },
        },
      },
    ]);
    if (!cancelled) return 'created';
    return failedAt(cancelled, 0) ? 'exists' : 'rate-limited';
  },

  async get(requestId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: supportKeys.request(requestId), ConsistentRead: true }));
    return Item ? toRequest(Item) : undefined;
  },

  async pageByCreator(creatorId, page) {
    const partition = supportKeys.byCreator(creatorId, '', '').gsi1pk;
    const found = await indexPage({ index: 'gsi1', partition, cursor: page.cursor, limit: page.limit, cursorKey: { sortPrefix: { name: 'pk', prefix: 'SUPPORT#' } } });
    return { items: found.items.map(toRequest), nextCursor: found.nextCursor };
  },

  async pageByStatus(status, page) {
    const found = await indexPage({
      index: 'gsi2',
      partition: `SUPPORT#${status}`,
      cursor: page.cursor,
      limit: page.limit,
      cursorKey: { sortPrefix: { name: 'pk', prefix: 'SUPPORT#' } },
      oldestFirst: true,
    });
    return { items: found.items.map(toRequest), nextCursor: found.nextCursor };
  },

  async reply({ requestId, seenReplies, reply, closedAt, email, audit }) {
    const closing = closedAt !== undefined;
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: supportKeys.request(requestId),
          UpdateExpression: `SET replies = list_append(replies, :reply)${closing ? ', #status = :closed, closedAt = :at, gsi2pk = :closedPk' : ''}`,
          ConditionExpression: 'attribute_exists(pk) AND #status = :open AND size(replies) = :seen',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':reply': [reply],
            ':open': 'open' satisfies SupportStatus,
            ':seen': seenReplies,
            ...(closing ? { ':closed': 'closed', ':at': closedAt, ':closedPk': 'SUPPORT#closed' } : {}),
          },
        },
      },
      ...(email ? [mailQueuePut(email)] : []),
      ...(audit ? [auditPut(audit)] : []),
    ]);
    return cancelled ? 'changed' : 'replied';
  },
});

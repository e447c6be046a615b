import { GetCommand, QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { roleSchema } from '#contracts/common.ts';
import type { ExportedRecord, ExportProgress, PersonalExportStore, PersonalRecords, RecordSource } from '#core/personal-exports/ports.ts';
import { commentKeys } from '#data/comments.ts';
import { courseKeys } from '#data/courses.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { orderKeys } from '#data/orders.ts';
import { submissionKeys } from '#data/submissions.ts';
import { documentClient, failedAt, tableName, transact } from '#data/table.ts';
import { userKeys } from '#data/users.ts';

/**
 * Personal data exports (issue 37 point 1; docs/data-model.md "Personal data exports"), beside the user's account:
 * Export:   pk USER#<userId>  sk EXPORT#<exportId>   exportId, userId, status pending|ready, requestedAt, readyAt?,
 *           linkExpiresAt?, expiresAt (TTL, epoch seconds: 7 days after the request, moved to 3 days after the link's
 *           end once ready; the ZIP itself goes by the bucket's rule), progress? and progressVersion? while its run
 *           writes the ZIP (decision 0062: the multipart upload, its parts' ETags, the ZIP's state, where the gathering
 *           stands, as JSON; removed when it is made ready)
 * Pending:  pk USER#<userId>  sk EXPORT_PENDING      exportId, requestedAt, expiresAt (TTL as its export's)
 *           the one pending export: put with the export under `attribute_not_exists` (or over a stale one), deleted
 *           in the transaction that makes it ready (with the email's mail queue item).
 */
export const personalExportKeys = {
  export: (userId: string, exportId: string) => ({ pk: `USER#${userId}`, sk: `EXPORT#${exportId}` }),
  pending: (userId: string) => ({ pk: `USER#${userId}`, sk: 'EXPORT_PENDING' }),
};

const DAY_SECONDS = 24 * 3600;
const epoch = (iso: string, plusSeconds: number) => Math.floor(Date.parse(iso) / 1000) + plusSeconds;

const exportItem = z.object({
  exportId: z.string(),
  userId: z.string(),
  status: z.enum(['pending', 'ready']),
  requestedAt: z.string(),
  readyAt: z.string().optional(),
  linkExpiresAt: z.string().optional(),
  // Written only by saveProgress below, from the job's own state: JSON of an ExportProgress.
  progress: z
    .string()
    .optional()
    .transform((json) => (json === undefined ? undefined : (JSON.parse(json) as ExportProgress))),
});

export const dynamoPersonalExports = (): PersonalExportStore => ({
  async request({ userId, exportId, requestedAt, staleBefore }) {
    const expiresAt = epoch(requestedAt, 7 * DAY_SECONDS);
    for (let attempt = 0; attempt < 3; attempt++) {
      const cancelled = await transact([
        {
          Put: {
            TableName: tableName(),
            Item: { ...personalExportKeys.pending(userId), type: 'PersonalExportPending', exportId, requestedAt, expiresAt },
            ConditionExpression: 'attribute_not_exists(pk) OR requestedAt < :stale',
            ExpressionAttributeValues: { ':stale': staleBefore },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...personalExportKeys.export(userId, exportId), type: 'PersonalExport', exportId, userId, status: 'pending', requestedAt, expiresAt },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]);
      if (!cancelled) return exportId;
      if (!failedAt(cancelled, 0)) throw new Error(`The export ${exportId} could not be written: ${cancelled.codes.join(', ')}`);
      const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: personalExportKeys.pending(userId), ConsistentRead: true }));
      // Gone between the two (made ready meanwhile): try again, a new export is due.
      if (Item) return z.object({ exportId: z.string() }).parse(Item).exportId;
    }
    throw new Error(`No pending export could be written or read for ${userId}`);
  },

  async get(userId, exportId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: personalExportKeys.export(userId, exportId), ConsistentRead: true }));
    return Item ? exportItem.parse(Item) : undefined;
  },

  async markReady({ userId, exportId, readyAt, linkExpiresAt, mail }) {
    const ready = {
      Update: {
        TableName: tableName(),
        Key: personalExportKeys.export(userId, exportId),
        // The run's state goes with the pending status: what is left of the upload is the finished ZIP.
        UpdateExpression: 'SET #status = :ready, readyAt = :at, linkExpiresAt = :until, expiresAt = :ttl REMOVE progress, progressVersion',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':ready': 'ready', ':pending': 'pending', ':at': readyAt, ':until': linkExpiresAt, ':ttl': epoch(linkExpiresAt, 3 * DAY_SECONDS) },
      },
    };
    const pointer = await documentClient().send(new GetCommand({ TableName: tableName(), Key: personalExportKeys.pending(userId), ConsistentRead: true }));
    // Its own pointer goes with it (on condition it is still its own); a newer request's, over a stale one, stays.
    const own = pointer.Item?.['exportId'] === exportId;
    const cancelled = await transact([
      ready,
      mailQueuePut(mail),
      ...(own
        ? [{ Delete: { TableName: tableName(), Key: personalExportKeys.pending(userId), ConditionExpression: 'exportId = :id', ExpressionAttributeValues: { ':id': exportId } } }]
        : []),
    ]);
    if (!cancelled) return true;
    if (failedAt(cancelled, 0)) return false;
    throw new Error(`The export ${exportId} could not be made ready: ${cancelled.codes.join(', ')}`);
  },

  async saveProgress({ userId, exportId, progress }) {
    // Its version in an attribute of its own, for the condition: the save before this one's, or none for the first.
    const json = JSON.stringify(progress);
    // The item's 400 KB: the state grows with the ZIP's files (its directory) and the enrolled courses; said plainly.
    if (json.length > 350_000) throw new Error(`The export ${exportId}'s state is ${json.length} bytes: more files than an item can keep`);
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: personalExportKeys.export(userId, exportId),
          UpdateExpression: 'SET progress = :progress, progressVersion = :version',
          ConditionExpression: progress.version === 1 ? '#status = :pending AND attribute_not_exists(progressVersion)' : '#status = :pending AND progressVersion = :before',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':progress': json, ':version': progress.version, ':pending': 'pending', ...(progress.version === 1 ? {} : { ':before': progress.version - 1 }) },
        }),
      );
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  },
});

/** Page size of every read: a page of records in memory at a time. */
const PAGE = 200;

/** The Query of each source: by key or index, never a scan. */
const queryOf = (source: RecordSource): Omit<QueryCommandInput, 'TableName'> => {
  switch (source.kind) {
    case 'account':
      return { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${source.userId}` } };
    case 'enrolments':
      return { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': enrollmentKeys.byLearner(source.learnerId, '').gsi2pk } };
    case 'left-enrolments':
      return { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': enrollmentKeys.left(source.learnerId, '').gsi2pk } };
    case 'quiz-attempts':
      return { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': `COURSE#${source.courseId}`, ':prefix': `QUIZ#${source.learnerId}#` } };
    case 'certificates':
      return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `LEARNER#${source.learnerId}#CERTS` } };
    case 'courses':
      return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `CREATOR#${source.creatorId}#COURSES` } };
    case 'crm':
      return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `CREATOR#${source.creatorId}#LEARNERS` } };
    case 'support-requests':
      return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `CREATOR#${source.creatorId}#SUPPORT` } };
    // Every submission of the course, the learner's together (data/submissions.ts): superseded ones too.
    case 'submissions':
      return {
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :learner)',
        ExpressionAttributeValues: { ':pk': submissionKeys.ofCourse({ ...source, submittedAt: '', id: '' }).gsi2pk, ':learner': `${source.learnerId}#` },
      };
    // The learner's own partition in the course (data/submissions.ts): their uploads.
    case 'submission-files':
      return { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': submissionKeys.pending(source.courseId, source.learnerId).pk, ':prefix': 'FILE#' } };
    // The lessons' ids alone (not their bodies): a page of ids in memory.
    case 'lessons':
      return {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': courseKeys.course(source.courseId).pk, ':prefix': courseKeys.lessonPrefix },
        ProjectionExpression: '#id',
        ExpressionAttributeNames: { '#id': 'id' },
      };
    case 'lesson-threads':
      return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': commentKeys.lessonThreads(source.courseId, source.lessonId) } };
    case 'orders':
      return { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': orderKeys.buyer(source.buyerEmail, '', '').gsi2pk } };
    case 'thread-replies':
      return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `THREAD#${source.threadId}` } };
  }
};

/** What an exported record leaves out: the table's keys and index keys (how it is stored, not data about the person). */
const KEY_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk']);

/** An item as exported: no keys; binary attributes (a packed body) as base64; sets as lists. */
export const exportedRecord = (item: Record<string, unknown>): ExportedRecord =>
  Object.fromEntries(
    Object.entries(item)
      .filter(([name]) => !KEY_ATTRIBUTES.has(name))
      .map(([name, value]) => [name, value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value instanceof Set ? [...(value as Set<unknown>)] : value]),
  );

/**
 * What of an order is the buyer's record: what they bought, what they paid, its status and dates. Not the Stripe ids
 * (session, payment, event), the checkout URL, the creator's connected account or the affiliate: how it was handled,
 * some of it the creator's.
 */
const BUYER_ORDER_FIELDS = ['id', 'courseId', 'courseTitle', 'bundleId', 'courseIds', 'courseTitles', 'seats', 'status', 'price', 'discount', 'amount', 'currency', 'couponCode', 'buyerEmail', 'createdAt', 'paidAt', 'reversedAt'] as const;
const buyerOrder = (item: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(BUYER_ORDER_FIELDS.filter((name) => name in item).map((name) => [name, item[name]]));

/**
 * A submission as exported: marked `superseded` when a later one of the same assignment replaced it (it names that one
 * in `supersededBy`), so the person can tell their latest from the earlier tries.
 */
const markedSubmission = (item: Record<string, unknown>): Record<string, unknown> => ({ ...item, superseded: typeof item['supersededBy'] === 'string' });

export const dynamoPersonalRecords = (): PersonalRecords => ({
  async person(userId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: userKeys.profile(userId) }));
    return Item ? z.object({ role: roleSchema, email: z.string() }).parse(Item) : undefined;
  },

  async page(source, cursor) {
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        ...queryOf(source),
        Limit: PAGE,
        ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown> } : {}),
      }),
    );
    const items = source.kind === 'submissions' ? Items.map(markedSubmission) : source.kind === 'orders' ? Items.map(buyerOrder) : Items;
    return { items: items.map(exportedRecord), nextCursor: LastEvaluatedKey ? Buffer.from(JSON.stringify(LastEvaluatedKey)).toString('base64url') : null };
  },
});

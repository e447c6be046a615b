import { GetCommand, PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { CreatorCounters, CrmEnrollment, CrmRepository, StoredNote, StoredTimelineEntry } from '#core/crm/ports.ts';
import { liveCourseTitles } from '#data/courses.ts';
import { readCounter, shardedCounter } from '#data/sharded-counters.ts';
import { dynamoSubmissions } from '#data/submissions.ts';
import { batchGet, decodeCursor, documentClient, encodeCursor, tableName } from '#data/table.ts';

/**
 * The creator's CRM (access patterns 10, 12 and 13).
 * Note:      pk CREATOR#<creatorId>  sk NOTE#<learnerId>                        notes, updatedAt (one per creator and learner)
 * Timeline:  pk CREATOR#<creatorId>  sk TIMELINE#<learnerId>#<sentAt>#<id>      kind 'recommendation', text, sentAt
 * Counters:  pk CREATORSTATS#<creatorId>#<0..15>  sk STATS                    courses, students, completions, certificates
 *            (shards written by the course, enrolment and certificate transactions; read here summed, in one
 *            BatchGetItem, for the dashboard: data/sharded-counters.ts)
 * It reads the enrolment items (data/enrollments.ts owns them) through their documented keys:
 *   the CRM page  = ONE Query on gsi1 `CREATOR#<creatorId>#LEARNERS` (sk `<enrolledAt>#<courseId>#<learnerId>`,
 *                   newest first) + ONE BatchGetItem of the page's notes + ONE BatchGetItem of the page's course items
 *                   (the titles where they live; rows of a course that is gone are left out) + ONE BatchGetItem of the
 *                   page's pending-submission counts (data/submissions.ts), whatever the number of learners;
 *   `?courseId=`  = ONE Query on the course's partition (`COURSE#<id>`, sk begins_with `ENROLL#`), kept to active
 *                   enrolments of the caller (the use case has checked the course is theirs) + the same BatchGetItem;
 *   one learner   = Query on gsi2 `LEARNER#<learnerId>#COURSES`, kept to the caller's courses (a learner has a handful).
 * A removed enrolment has no gsi1 keys and its gsi2 keys are in the learner's courses they left
 * (`LEARNER#<learnerId>#LEFT`), so neither listing sees it. Cursors are the base64url of LastEvaluatedKey and
 * must belong to the listing they are sent back to: one of another creator's or course's listing is refused.
 */
export const crmKeys = {
  note: (creatorId: string, learnerId: string) => ({ pk: `CREATOR#${creatorId}`, sk: `NOTE#${learnerId}` }),
  timelinePrefix: (learnerId: string) => `TIMELINE#${learnerId}#`,
  timeline: (creatorId: string, learnerId: string, sentAt: string, id: string) => ({
    pk: `CREATOR#${creatorId}`,
    sk: `${crmKeys.timelinePrefix(learnerId)}${sentAt}#${id}`,
  }),
  counters: (creatorId: string) => shardedCounter(`CREATORSTATS#${creatorId}`, 'STATS', { legacy: { pk: `CREATOR#${creatorId}`, sk: 'STATS' } }),
  creatorLearners: (creatorId: string) => `CREATOR#${creatorId}#LEARNERS`,
  learnerCourses: (learnerId: string) => `LEARNER#${learnerId}#COURSES`,
  course: (courseId: string) => ({ pk: `COURSE#${courseId}`, sk: 'COURSE' }),
};

/** What the CRM needs of an enrolment item; the denormalised fields may be missing (core applies the defaults). */
const enrollmentItem = z.object({
  courseId: z.string(),
  learnerId: z.string(),
  creatorId: z.string(),
  status: z.string().optional(),
  enrolledAt: isoDate,
  learnerEmail: z.string().nullish(),
  learnerJoinedAt: isoDate.nullish(),
  courseTitle: z.string().nullish(),
  progress: z.number().int().min(0).max(100).nullish(),
  lastActivity: isoDate.nullish(),
  completedAt: isoDate.nullish(),
});

const toEnrollment = (item: unknown): CrmEnrollment & { creatorId: string; active: boolean } => {
  const e = enrollmentItem.parse(item);
  return {
    courseId: e.courseId,
    learnerId: e.learnerId,
    creatorId: e.creatorId,
    active: e.status !== 'removed',
    enrolledAt: e.enrolledAt,
    ...(e.learnerEmail ? { learnerEmail: e.learnerEmail } : {}),
    ...(e.learnerJoinedAt ? { learnerJoinedAt: e.learnerJoinedAt } : {}),
    ...(e.courseTitle ? { courseTitle: e.courseTitle } : {}),
    ...(e.progress != null ? { progress: e.progress } : {}),
    ...(e.lastActivity ? { lastActivity: e.lastActivity } : {}),
    completedAt: e.completedAt ?? null,
  };
};

const strip = ({ creatorId: _creator, active: _active, ...enrollment }: ReturnType<typeof toEnrollment>): CrmEnrollment => enrollment;

const noteItem = z.object({ notes: z.string(), updatedAt: isoDate });
const timelineItem = z.object({ id: z.string(), kind: z.literal('recommendation'), text: z.string(), sentAt: isoDate });
const countersItem = z.object({ courses: z.number().default(0), students: z.number().default(0), completions: z.number().default(0), certificates: z.number().default(0) });
const learnerIdOfNote = (sk: string) => sk.slice('NOTE#'.length);

/**
 * The rows with their course's title where it lives (one BatchGetItem of the page's courses): a rename shows at once,
 * and the rows of a course deleted a moment ago (its enrolments still being removed by its 'course-changed' run) are
 * left out.
 */
const withLiveTitles = async (rows: CrmEnrollment[]): Promise<CrmEnrollment[]> => {
  if (rows.length === 0) return rows;
  const titles = await liveCourseTitles(rows.map((r) => r.courseId));
  return rows.filter((r) => titles.has(r.courseId)).map((r) => ({ ...r, courseTitle: titles.get(r.courseId)! }));
};

export const dynamoCrm = (): CrmRepository => ({
  async learnersPage({ creatorId, courseId, cursor, limit }) {
    const query: QueryCommandInput = courseId
      ? {
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :enroll)',
          FilterExpression: 'creatorId = :me AND (attribute_not_exists(#status) OR #status <> :removed)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pk': crmKeys.course(courseId).pk, ':enroll': 'ENROLL#', ':me': creatorId, ':removed': 'removed' },
          Limit: limit,
          ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, { pk: crmKeys.course(courseId).pk }, { name: 'sk', prefix: 'ENROLL#' }) } : {}),
        }
      : {
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': crmKeys.creatorLearners(creatorId) },
          ScanIndexForward: false,
          Limit: limit,
          ...(cursor
            ? { ExclusiveStartKey: decodeCursor(cursor, { gsi1pk: crmKeys.creatorLearners(creatorId) }, { name: 'sk', prefix: 'ENROLL#' }) }
            : {}),
        };
    const { Items = [], LastEvaluatedKey } = await documentClient().send(new QueryCommand(query));
    const items = await withLiveTitles(
      Items.map(toEnrollment)
        .filter((e) => e.active && e.creatorId === creatorId)
        .map(strip),
    );
    const next = encodeCursor(LastEvaluatedKey);
    return { items, ...(next ? { cursor: next } : {}) };
  },

  async learnerEnrollments(creatorId, learnerId) {
    const found: CrmEnrollment[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const { Items = [], LastEvaluatedKey } = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          FilterExpression: 'creatorId = :me',
          ExpressionAttributeValues: { ':pk': crmKeys.learnerCourses(learnerId), ':me': creatorId },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      found.push(
        ...Items.map(toEnrollment)
          .filter((e) => e.active && e.creatorId === creatorId && e.learnerId === learnerId)
          .map(strip),
      );
      start = LastEvaluatedKey;
    } while (start);
    return withLiveTitles(found);
  },

  // The counters live with the submissions (their transactions move them): read by key there.
  pendingSubmissions: (enrolments) => dynamoSubmissions().pendingCounts(enrolments),

  async courseCreator(courseId) {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: crmKeys.course(courseId), ProjectionExpression: 'creatorId' }),
    );
    const creatorId = Item?.['creatorId'];
    return typeof creatorId === 'string' ? creatorId : undefined;
  },

  async getNote(creatorId, learnerId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: crmKeys.note(creatorId, learnerId) }));
    return Item ? noteItem.parse(Item) : undefined;
  },

  async getNotes(creatorId, learnerIds) {
    const keys = [...new Set(learnerIds)].map((learnerId) => crmKeys.note(creatorId, learnerId));
    const notes = new Map<string, StoredNote>();
    if (keys.length === 0) return notes;
    for (const item of await batchGet(keys, { projection: 'sk, notes, updatedAt' })) notes.set(learnerIdOfNote(String(item['sk'])), noteItem.parse(item));
    return notes;
  },

  async saveNote(creatorId, learnerId, note) {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...crmKeys.note(creatorId, learnerId), type: 'LearnerNote', creatorId, learnerId, notes: note.notes, updatedAt: note.updatedAt },
      }),
    );
  },

  async addTimelineEntry(creatorId, learnerId, entry: StoredTimelineEntry) {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...crmKeys.timeline(creatorId, learnerId, entry.sentAt, entry.id), type: 'TimelineEntry', creatorId, learnerId, ...entry },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async timeline(creatorId, learnerId, limit) {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':prefix': crmKeys.timelinePrefix(learnerId) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((item) => timelineItem.parse(item));
  },

  async counters(creatorId): Promise<CreatorCounters> {
    return countersItem.parse(await readCounter(crmKeys.counters(creatorId)));
  },
});

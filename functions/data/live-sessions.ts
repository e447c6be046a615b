import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import { sessionProviders, UPCOMING_SESSIONS_PER_COURSE_MAX } from '#contracts/live-sessions.ts';
import { sessionDueAt } from '#core/live-sessions/due.ts';
import type { SessionRepository, StoredSession } from '#core/live-sessions/ports.ts';
import { documentClient, dueIndexPage, queryAll, tableName, writeIf } from '#data/table.ts';

/**
 * Live sessions (issue 30; docs/data-model.md "Live sessions"): an item each, found by id alone (a learner's calendar
 * file) and by course through two indexes. Sessions of a deleted course stay, unreachable: every way to them goes
 * through the course (the creator's) or an enrolment in it (the learner's), both gone with it.
 * Session: pk SESSION#<sessionId>  sk SESSION   courseId, creatorId, title, description, startsAt, durationMinutes,
 *          provider, timeZone, meetingId, joinUrl, hostUrl, status scheduled|cancelled, sequence (RFC 5545), createdAt,
 *          updatedAt, remindedFor? (the start whose reminder is settled), providerPending? {action update|delete, tries,
 *          nextAt|null, error} (the provider's work not done yet)
 *          gsi1pk COURSE#<courseId>#SESSIONS  gsi1sk <endsAt>#<sessionId>    while scheduled (sparse: a cancelled
 *                                                                             session leaves it): the course's sessions
 *                                                                             that have not ended, one Query from `now`
 *          gsi2pk COURSE#<courseId>#SESSIONS  gsi2sk <startsAt>#<sessionId>  always: every session of the course
 *          gsi3pk SESSIONS#DUE                gsi3sk <dueAt>#<sessionId>      while it has work due (sparse): the earlier
 *                                                                             of its reminder (startsAt - 60 min, while
 *                                                                             scheduled and remindedFor is not startsAt)
 *                                                                             and providerPending.nextAt; computed from
 *                                                                             the session on every write; the
 *                                                                             'sessions-due' job reads `<= now`
 */
export const sessionKeys = {
  session: (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' }),
  upcoming: (s: Pick<StoredSession, 'courseId' | 'startsAt' | 'durationMinutes' | 'id'>) => ({
    gsi1pk: `COURSE#${s.courseId}#SESSIONS`,
    gsi1sk: `${new Date(Date.parse(s.startsAt) + s.durationMinutes * 60_000).toISOString()}#${s.id}`,
  }),
  all: (s: Pick<StoredSession, 'courseId' | 'startsAt' | 'id'>) => ({ gsi2pk: `COURSE#${s.courseId}#SESSIONS`, gsi2sk: `${s.startsAt}#${s.id}` }),
  /** The due index's keys (none: nothing due). */
  due: (s: StoredSession) => {
    const dueAt = sessionDueAt(s);
    return dueAt === undefined ? {} : { gsi3pk: DUE, gsi3sk: `${dueAt}#${s.id}` };
  },
};

const DUE = 'SESSIONS#DUE';

const sessionItem = z.object({
  id: z.string(),
  courseId: z.string(),
  creatorId: z.string(),
  title: z.string(),
  description: z.string(),
  startsAt: isoDate,
  durationMinutes: z.number().int(),
  provider: z.enum(sessionProviders),
  timeZone: z.string(),
  meetingId: z.string(),
  joinUrl: z.string(),
  hostUrl: z.string(),
  status: z.enum(['scheduled', 'cancelled']),
  sequence: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
  remindedFor: isoDate.optional(),
  providerPending: z
    .object({ action: z.enum(['update', 'delete']), tries: z.number().int(), nextAt: isoDate.nullable(), error: z.string() })
    .optional(),
});

const toSession = (item: Record<string, unknown>): StoredSession => {
  const { remindedFor, providerPending, ...session } = sessionItem.parse(item);
  return { ...session, ...(remindedFor !== undefined ? { remindedFor } : {}), ...(providerPending !== undefined ? { providerPending } : {}) };
};

const soonest = (a: StoredSession, b: StoredSession) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id);

const itemOf = (s: StoredSession) => ({
  ...sessionKeys.session(s.id),
  ...sessionKeys.all(s),
  type: 'LiveSession',
  ...s,
  ...(s.status === 'scheduled' ? sessionKeys.upcoming(s) : {}),
  ...sessionKeys.due(s),
});

const findSession = async (sessionId: string): Promise<StoredSession | undefined> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: sessionKeys.session(sessionId), ConsistentRead: true }));
  return Item ? toSession(Item) : undefined;
};

export const dynamoSessions = (): SessionRepository => ({
  async create(session) {
    const created = await writeIf(() =>
      documentClient().send(new PutCommand({ TableName: tableName(), Item: itemOf(session), ConditionExpression: 'attribute_not_exists(pk)' })),
    );
    return created ? 'created' : 'exists';
  },

  async get(courseId, sessionId) {
    const found = await findSession(sessionId);
    return found?.courseId === courseId ? found : undefined;
  },

  find: findSession,

  async save(session, expectedSequence) {
    const saved = await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: itemOf(session),
          ConditionExpression: '#sequence = :expected',
          ExpressionAttributeNames: { '#sequence': 'sequence' },
          ExpressionAttributeValues: { ':expected': expectedSequence },
        }),
      ),
    );
    return saved ? 'saved' : 'changed';
  },

  async listByCourse(courseId) {
    const items = await queryAll({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': `COURSE#${courseId}#SESSIONS` } });
    return items.map(toSession).sort(soonest);
  },

  async due(now, limit, after) {
    const page = await dueIndexPage(DUE, now, limit, after ? { cursor: after, pkPrefix: 'SESSION#' } : undefined);
    return { items: page.items.map(toSession), nextCursor: page.nextCursor };
  },

  async settle(session, before) {
    const pending = before.providerPending;
    const saved = await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: itemOf(session),
          ConditionExpression: [
            '#sequence = :sequence',
            before.remindedFor === undefined ? 'attribute_not_exists(remindedFor)' : 'remindedFor = :reminded',
            pending === undefined ? 'attribute_not_exists(providerPending)' : 'providerPending.tries = :tries',
          ].join(' AND '),
          ExpressionAttributeNames: { '#sequence': 'sequence' },
          ExpressionAttributeValues: {
            ':sequence': before.sequence,
            ...(before.remindedFor === undefined ? {} : { ':reminded': before.remindedFor }),
            ...(pending === undefined ? {} : { ':tries': pending.tries }),
          },
        }),
      ),
    );
    return saved ? 'saved' : 'changed';
  },

  async upcomingByCourse(courseId, now) {
    const items = await queryAll(
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :now',
        ExpressionAttributeValues: { ':pk': `COURSE#${courseId}#SESSIONS`, ':now': now },
      },
      UPCOMING_SESSIONS_PER_COURSE_MAX,
    );
    return items.map(toSession).sort(soonest);
  },
});

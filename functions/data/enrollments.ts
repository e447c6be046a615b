import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { ValidationError } from '#core/errors.ts';
import { restoredEnrollment, sourcesOf } from '#core/access/access.ts';
import type { Enrollment, EnrollmentProgress, EnrollmentRepository, NewEnrollment } from '#core/ports.ts';
import { courseKeys, liveCourseTitles } from '#data/courses.ts';
import { enrollmentMarks, reportUpdate } from '#data/course-reports.ts';
import { planEnrollmentDrip } from '#data/drip.ts';
import { batchGet, decodeCursor as decodeListCursor, documentClient, encodeCursor as encodeListCursor, failedAt, forEachOfType, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Enrolments, learner activity and the creator's learner counters (access patterns 10, 11).
 * Enrolment:     pk COURSE#<courseId>   sk ENROLL#<learnerId>
 *                gsi1pk CREATOR#<creatorId>#LEARNERS  gsi1sk <enrolledAt>#<courseId>#<learnerId>  (the CRM, newest first)
 *                gsi2pk LEARNER#<learnerId>#COURSES   gsi2sk <courseId>                           (the learner's courses,
 *                                                                                                  a page at a time in course order)
 *                Both index keys are these only while `status` is 'active': a removed enrolment leaves both listings
 *                but keeps its progress, so re-enrolling restores it. It moves in gsi2 to the learner's past courses,
 *                gsi2pk LEARNER#<learnerId>#LEFT  gsi2sk <courseId> (enrollmentKeys.left), so everything a course keeps
 *                about a person who left it (quiz attempts, submissions, comments, the CRM's note...) stays reachable
 *                from them by key: the account deletion erases it and the data export gathers it (issue 37). Removed
 *                enrolments written before get it from backfillLeftEnrollmentsIndex (bin/backfill.ts).
 *                courseTitle is a copy, stamped `courseTitleAt` (when it was written: enrolment, restore, or the
 *                'course-changed' run of a rename under the course's `titleChangedAt`); lists show the title read
 *                from the course item (liveCourseTitles) and leave out the enrolments of a course that is gone.
 * Activity day:  pk USER#<learnerId>     sk ACTIVITY#<YYYY-MM-DD>  one per day with a completed lesson, in the
 *                learner's time zone of that moment (the study streak).
 * Counters:      the creator's `students` (active enrolments) and `completions` (active enrolments with completedAt),
 *                on one shard (the learner's) of the creator's stats (pk CREATORSTATS#<creatorId>#<0..15> sk STATS;
 *                data/courses.ts owns them), the course's enrolled count (pk ENROLLED#<courseId>#<0..15> sk COUNT,
 *                `enrolled`) and the platform's figures move with the enrolment's status and completedAt, from the
 *                table's stream (data/stream-counters.ts, docs/decisions/0040-stream-aggregator.md): a batch window
 *                after the enrolment's write, never in its transaction.
 *                An enrolment is written only while its course item exists: a new one is a conditional Put followed by a
 *                consistent read of the course (taken back, 'gone', when the course is not there: decision 0054); a
 *                restore or a change checks the course in its transaction (a ConditionCheck: 'gone' otherwise).
 * Drip plan:     pk COURSE#<courseId>  sk DRIP#<learnerId> (data/drip.ts), written before a new or restored enrolment
 *                when the course has drip lessons (one GetItem of its rules otherwise, no write).
 * Sources:       `sources` (issue 34): what holds the enrolment, 'own' and the bundle orders that gave or also cover it
 *                (core/access/access.ts); absent: its own alone. Changed on the condition that they are as read; a
 *                bundle's refund takes its source away (revokeSource) and removes the enrolment with the last one.
 * Report marks:  `startedAt` and `reachedLessonIds` on the enrolment: what the learner is counted in by the course's
 *                report (data/course-reports.ts); set by the progress writes (completeLesson, reachLesson, a quiz
 *                attempt) that move those figures, in the same transaction, each only while unset.
 */
export const enrollmentKeys = {
  enrollment: (courseId: string, learnerId: string) => ({ pk: `COURSE#${courseId}`, sk: `ENROLL#${learnerId}` }),
  byCreator: (creatorId: string, enrolledAt: string, courseId: string, learnerId: string) => ({
    gsi1pk: `CREATOR#${creatorId}#LEARNERS`,
    gsi1sk: `${enrolledAt}#${courseId}#${learnerId}`,
  }),
  byLearner: (learnerId: string, courseId: string) => ({ gsi2pk: `LEARNER#${learnerId}#COURSES`, gsi2sk: courseId }),
  /** A removed enrolment's place in gsi2: the courses the learner left, a page at a time in course order. */
  left: (learnerId: string, courseId: string) => ({ gsi2pk: `LEARNER#${learnerId}#LEFT`, gsi2sk: courseId }),
  activity: (learnerId: string, day: string) => ({ pk: `USER#${learnerId}`, sk: `ACTIVITY#${day}` }),
};

const ENROLL_PREFIX = 'ENROLL#';
const ACTIVITY_PREFIX = 'ACTIVITY#';
/** A course's enrolment list: one page. */
const COURSE_PAGE = 100;
/** A page of title copies for the 'course-changed' job (two small attributes each: ~1 read unit per 100). */
const TITLE_PAGE = 500;

const enrollmentItem = z.object({
  courseId: z.string(),
  learnerId: z.string(),
  creatorId: z.string(),
  learnerEmail: z.string(),
  learnerJoinedAt: z.string(),
  courseTitle: z.string(),
  status: z.enum(['active', 'removed']),
  enrolledAt: z.string(),
  completedLessonIds: z.array(z.string()),
  progress: z.number().int().min(0).max(100),
  lastActivity: z.string(),
  completedAt: z.string().nullable(),
  licenseId: z.string().optional(),
  sources: z.array(z.string()).optional(),
  certificateId: z.string().optional(),
  startedAt: z.string().optional(),
  reachedLessonIds: z.array(z.string()).optional(),
});

const toEnrollment = (item: unknown): Enrollment => enrollmentItem.parse(item);

const progressItem = enrollmentItem.pick({ learnerId: true, enrolledAt: true, progress: true, lastActivity: true, completedAt: true, certificateId: true });
const PROGRESS_PROJECTION = Object.keys(progressItem.shape).join(', ');

/**
 * An enrolment changes only while its course exists: a check of the course item, which is not written. (Its counters
 * follow from the table's stream: data/stream-counters.ts.)
 */
const courseExists = (courseId: string) => ({ ConditionCheck: { TableName: tableName(), Key: courseKeys.course(courseId), ConditionExpression: 'attribute_exists(pk)' } });

const encodeCursor = (key: Record<string, unknown> | undefined): string | null =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;

/** An opaque cursor back to its key; only a key of this course's enrolment listing is accepted. */
const decodeCursor = (cursor: string, courseId: string): Record<string, unknown> => {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (key['pk'] === `COURSE#${courseId}` && typeof key['sk'] === 'string' && key['sk'].startsWith(ENROLL_PREFIX) && Object.keys(key).length === 2) return key;
  } catch {
    // falls through to the refusal
  }
  throw new ValidationError('The cursor is not valid.');
};

/** One enrolment by its keys (consistent): the functions that read an enrolment and write none take this alone. */
export const readEnrollment = async (courseId: string, learnerId: string): Promise<Enrollment | undefined> => {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: enrollmentKeys.enrollment(courseId, learnerId), ConsistentRead: true }),
  );
  return Item ? toEnrollment(Item) : undefined;
};

/** Enrolments with their course's title as it is now; those of a course that is gone left out. */
const withLiveTitles = async (enrollments: Enrollment[]): Promise<Enrollment[]> => {
  if (enrollments.length === 0) return enrollments;
  const titles = await liveCourseTitles(enrollments.map((e) => e.courseId));
  return enrollments.filter((e) => titles.has(e.courseId)).map((e) => ({ ...e, courseTitle: titles.get(e.courseId)! }));
};

/** A copy of the course's title on one enrolment: its learner and when the copy was written (absent: before stamps). */
const titleCopyItem = z.object({ learnerId: z.string(), courseTitleAt: z.string().optional() });

/** One page of a course's enrolments' title copies (the 'course-changed' job): key order, projected. */
export const enrollmentTitlePage = async (courseId: string, cursor: string | undefined) => {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':prefix': ENROLL_PREFIX },
      ProjectionExpression: 'learnerId, courseTitleAt',
      Limit: TITLE_PAGE,
      ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, courseId) } : {}),
    }),
  );
  return {
    items: (page.Items ?? []).map((item) => {
      const copy = titleCopyItem.parse(item);
      return { id: copy.learnerId, courseTitleAt: copy.courseTitleAt };
    }),
    nextCursor: encodeCursor(page.LastEvaluatedKey),
  };
};

/** A page of enrolments for a session's emails (the 'session-mail' job): small items, ~1 read unit per 100. */
const LEARNER_PAGE = 200;
const sessionLearnerItem = z.object({ learnerId: z.string(), learnerEmail: z.string(), status: z.enum(['active', 'removed']) });

/** One page of a course's enrolments as the 'session-mail' job reads them: who, their email, whether active (key order, projected). */
export const enrollmentLearnerPage = async (courseId: string, cursor: string | undefined) => {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':prefix': ENROLL_PREFIX },
      ExpressionAttributeNames: { '#status': 'status' },
      ProjectionExpression: 'learnerId, learnerEmail, #status',
      Limit: LEARNER_PAGE,
      ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, courseId) } : {}),
    }),
  );
  return {
    items: (page.Items ?? []).map((item) => {
      const learner = sessionLearnerItem.parse(item);
      return { learnerId: learner.learnerId, email: learner.learnerEmail, active: learner.status === 'active' };
    }),
    nextCursor: encodeCursor(page.LastEvaluatedKey),
  };
};

/** A page of enrolments for a drip re-plan (a 'drip-changed' run): who, since when, whether active (key order, projected). */
const dripEnrollmentItem = z.object({ learnerId: z.string(), enrolledAt: z.string(), status: z.enum(['active', 'removed']) });

export const enrollmentDripPage = async (courseId: string, cursor: string | undefined) => {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':prefix': ENROLL_PREFIX },
      ExpressionAttributeNames: { '#status': 'status' },
      ProjectionExpression: 'learnerId, enrolledAt, #status',
      Limit: LEARNER_PAGE,
      ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, courseId) } : {}),
    }),
  );
  return { items: (page.Items ?? []).map((item) => dripEnrollmentItem.parse(item)), nextCursor: encodeCursor(page.LastEvaluatedKey) };
};

/**
 * The course's new title on one enrolment, only if its copy is older than this rename (`version`, the course's
 * `titleChangedAt`): an older rename's run never undoes a newer one, and a run done twice writes nothing the second
 * time. False when the copy was not older, or the enrolment is gone.
 */
export const retitleEnrollment = (courseId: string, learnerId: string, title: string, version: string): Promise<boolean> =>
  writeIf(() =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: enrollmentKeys.enrollment(courseId, learnerId),
        UpdateExpression: 'SET courseTitle = :title, courseTitleAt = :version',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(courseTitleAt) OR courseTitleAt < :version)',
        ExpressionAttributeValues: { ':title': title, ':version': version },
      }),
    ),
  );

/** Whether the course item is there (consistent: read after an enrolment's write, decision 0054). */
const courseStands = async (courseId: string): Promise<boolean> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: courseKeys.course(courseId), ConsistentRead: true, ProjectionExpression: 'pk' }));
  return Item !== undefined;
};

/** An enrolment just written for a course found gone after it: deleted, only if it is still that one, untouched. */
const takeBack = (courseId: string, learnerId: string, enrolledAt: string): Promise<boolean> =>
  writeIf(() =>
    documentClient().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: enrollmentKeys.enrollment(courseId, learnerId),
        ConditionExpression: 'enrolledAt = :at AND lastActivity = :at',
        ExpressionAttributeValues: { ':at': enrolledAt },
      }),
    ),
  );

/**
 * A removal's move of the enrolment in gsi2, from the learner's courses to the ones they left (never out of the index:
 * the account deletion and the data export find what the course keeps about them through it).
 */
const LEFT_SET = 'gsi2pk = :leftPk, gsi2sk = :leftSk';
const leftValues = (learnerId: string, courseId: string) => {
  const { gsi2pk, gsi2sk } = enrollmentKeys.left(learnerId, courseId);
  return { ':leftPk': gsi2pk, ':leftSk': gsi2sk };
};

/** Two writers racing on one enrolment: each attempt reads again; this many is far beyond any real contention. */
const ATTEMPTS = 5;

/**
 * The condition that an active enrolment's sources are still as read (absent: still absent), with the names and values
 * an update adds to (`:removed` for the status it may set).
 */
const sourcesUnchanged = (read: Enrollment) => ({
  ConditionExpression: read.sources ? '#status = :active AND sources = :read' : '#status = :active AND attribute_not_exists(sources)',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':active': 'active', ':removed': 'removed', ...(read.sources ? { ':read': read.sources } : {}) },
});

/** An active enrolment's sources replaced, on the condition that they are still as read: false when they moved. */
const setSources = (read: Enrollment, sources: string[]): Promise<boolean> => {
  const unchanged = sourcesUnchanged(read);
  const { ':removed': _unused, ...values } = unchanged.ExpressionAttributeValues;
  return writeIf(() =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: enrollmentKeys.enrollment(read.courseId, read.learnerId),
        UpdateExpression: 'SET sources = :sources',
        ConditionExpression: unchanged.ConditionExpression,
        ExpressionAttributeNames: unchanged.ExpressionAttributeNames,
        ExpressionAttributeValues: { ...values, ':sources': sources },
      }),
    ),
  );
};

export const dynamoEnrollments = (): EnrollmentRepository => ({
  async enroll(input: NewEnrollment) {
    const table = tableName();
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const existing = await readEnrollment(input.courseId, input.learnerId);
      const { source, ...fields } = input;
      if (existing?.status === 'active') {
        if (!source || sourcesOf(existing).includes(source)) return { status: 'already' };
        // Held already (by the learner's own means or another bundle): the bundle's source is added beside them.
        if (await setSources(existing, [...sourcesOf(existing), source])) return { status: 'added' };
        continue;
      }
      // Its drip plan first (a course with drip lessons only): data/drip.ts planEnrollmentDrip.
      await planEnrollmentDrip(input.courseId, input.learnerId, existing?.enrolledAt ?? input.enrolledAt);
      if (!existing) {
        const enrollment: Enrollment = {
          ...fields,
          ...(source ? { sources: [source] } : {}),
          status: 'active',
          completedLessonIds: [],
          progress: 0,
          lastActivity: input.enrolledAt,
          completedAt: null,
        };
        // A plain conditional Put (3 write units: the item and its two indexes), not a transaction with a check of the
        // course (6, and the check's own 2): the course is read after it instead (decision 0054). The course-delete
        // job deletes the course item first and sweeps its enrolments after: either this read sees the course gone and
        // the enrolment is taken back here, or the sweep (which reads after the course went) sees the enrolment.
        const written = await writeIf(() =>
          documentClient().send(
            new PutCommand({
              TableName: table,
              Item: {
                ...enrollmentKeys.enrollment(input.courseId, input.learnerId),
                ...enrollmentKeys.byCreator(input.creatorId, input.enrolledAt, input.courseId, input.learnerId),
                ...enrollmentKeys.byLearner(input.learnerId, input.courseId),
                type: 'Enrollment',
                ...enrollment,
                courseTitleAt: input.enrolledAt,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          ),
        );
        if (!written) continue;
        if (await courseStands(input.courseId)) return { status: 'enrolled', enrollment };
        await takeBack(input.courseId, input.learnerId, input.enrolledAt);
        return { status: 'gone' };
      }
      // A removed enrolment comes back with its progress (restoredEnrollment).
      const restored = restoredEnrollment(existing, input, source);
      const removed = [...(input.licenseId ? [] : ['licenseId']), ...(source ? [] : ['sources'])];
      const byCreator = enrollmentKeys.byCreator(existing.creatorId, existing.enrolledAt, existing.courseId, existing.learnerId);
      const byLearner = enrollmentKeys.byLearner(existing.learnerId, existing.courseId);
      const cancelled = await transact([
        {
          Update: {
            TableName: table,
            Key: enrollmentKeys.enrollment(input.courseId, input.learnerId),
            UpdateExpression: `SET #status = :active, learnerEmail = :email, courseTitle = :title, courseTitleAt = :titleAt, gsi1pk = :g1pk, gsi1sk = :g1sk, gsi2pk = :g2pk, gsi2sk = :g2sk${
              input.licenseId ? ', licenseId = :license' : ''
            }${source ? ', sources = :sources' : ''}${removed.length ? ` REMOVE ${removed.join(', ')}` : ''}`,
            ConditionExpression: '#status = :removed',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':active': 'active',
              ':removed': 'removed',
              ':email': input.learnerEmail,
              ':title': input.courseTitle,
              ':titleAt': input.enrolledAt,
              ':g1pk': byCreator.gsi1pk,
              ':g1sk': byCreator.gsi1sk,
              ':g2pk': byLearner.gsi2pk,
              ':g2sk': byLearner.gsi2sk,
              ...(input.licenseId ? { ':license': input.licenseId } : {}),
              ...(source ? { ':sources': [source] } : {}),
            },
          },
        },
        courseExists(input.courseId),
      ]);
      if (!cancelled) return { status: 'restored', enrollment: restored };
      if (failedAt(cancelled, 1)) return { status: 'gone' };
    }
    throw new Error(`enrolment ${input.courseId}/${input.learnerId} kept changing`);
  },

  async remove(courseId, learnerId) {
    const existing = await readEnrollment(courseId, learnerId);
    if (existing?.status !== 'active') return 'missing';
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: enrollmentKeys.enrollment(courseId, learnerId),
          UpdateExpression: `SET #status = :removed, ${LEFT_SET} REMOVE gsi1pk, gsi1sk, sources`,
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': 'active', ':removed': 'removed', ...leftValues(learnerId, courseId) },
        },
      },
      courseExists(courseId),
    ]);
    return cancelled ? 'missing' : 'removed';
  },

  async revokeSource(courseId, learnerId, source) {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const existing = await readEnrollment(courseId, learnerId);
      if (existing?.status !== 'active' || !sourcesOf(existing).includes(source)) return 'missing';
      const rest = sourcesOf(existing).filter((s) => s !== source);
      if (rest.length > 0) {
        if (await setSources(existing, rest)) return 'kept';
        continue;
      }
      // Its last source: removed as `remove` does, on the condition that its sources did not change since read.
      const cancelled = await transact([
        {
          Update: {
            TableName: tableName(),
            Key: enrollmentKeys.enrollment(courseId, learnerId),
            UpdateExpression: `SET #status = :removed, ${LEFT_SET} REMOVE gsi1pk, gsi1sk, sources`,
            ...sourcesUnchanged(existing),
            ExpressionAttributeValues: { ...sourcesUnchanged(existing).ExpressionAttributeValues, ...leftValues(learnerId, courseId) },
          },
        },
        courseExists(courseId),
      ]);
      if (!cancelled) return 'removed';
      if (failedAt(cancelled, 1)) return 'missing';
    }
    throw new Error(`enrolment ${courseId}/${learnerId} kept changing`);
  },

  get: readEnrollment,

  async getMany(courseId, learnerIds) {
    const ids = [...new Set(learnerIds)];
    const batches = Array.from({ length: Math.ceil(ids.length / 100) }, (_, i) => ids.slice(i * 100, i * 100 + 100));
    const found: EnrollmentProgress[] = [];
    // Four batch reads at a time: a 5,000-member licence is 50 of them. Only the progress is read (not the lessons done).
    for (let i = 0; i < batches.length; i += 4) {
      const pages = await Promise.all(
        batches.slice(i, i + 4).map((batch) => batchGet(batch.map((learnerId) => enrollmentKeys.enrollment(courseId, learnerId)), { projection: PROGRESS_PROJECTION })),
      );
      for (const page of pages) found.push(...page.map((item) => progressItem.parse(item)));
    }
    return found;
  },

  async listByCourse(courseId, cursor) {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':prefix': ENROLL_PREFIX },
        Limit: COURSE_PAGE,
        ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, courseId) } : {}),
      }),
    );
    return { items: (page.Items ?? []).map(toEnrollment), cursor: encodeCursor(page.LastEvaluatedKey) };
  },

  async listByLearner(learnerId) {
    const items = await queryAll({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': `LEARNER#${learnerId}#COURSES` },
    });
    return withLiveTitles(items.map(toEnrollment));
  },

  async pageByLearner(learnerId, { cursor, limit }) {
    const partition = enrollmentKeys.byLearner(learnerId, '').gsi2pk;
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: decodeListCursor(cursor, { gsi2pk: partition }, { name: 'sk', prefix: ENROLL_PREFIX }) } : {}),
      }),
    );
    return { items: await withLiveTitles(Items.map(toEnrollment)), nextCursor: encodeListCursor(LastEvaluatedKey) ?? null };
  },

  async completeLesson(input) {
    const table = tableName();
    // The course report's marks (first activity, lesson reached) ride on the same update, under their own conditions.
    const marks = enrollmentMarks(input.report);
    const cancelled = await transact([
      {
        Update: {
          TableName: table,
          Key: enrollmentKeys.enrollment(input.courseId, input.learnerId),
          // The first completion also puts the enrolment on the certificates' due index (functions/data/certificates.ts).
          UpdateExpression: `SET completedLessonIds = list_append(completedLessonIds, :lesson), progress = :progress, lastActivity = :at${
            input.completedAt ? ', completedAt = :completedAt, gsi3pk = :duePk, gsi3sk = :dueSk' : ''
          }${marks.sets.map((set) => `, ${set}`).join('')}`,
          ConditionExpression: ['#status = :active AND size(completedLessonIds) = :seen', ...marks.conditions].join(' AND '),
          ExpressionAttributeNames: { '#status': 'status', ...marks.names },
          ExpressionAttributeValues: {
            ...marks.values,
            ':lesson': [input.lessonId],
            ':progress': input.progress,
            ':at': input.at,
            ':active': 'active',
            ':seen': input.seenCount,
            ...(input.completedAt
              ? { ':completedAt': input.completedAt, ':duePk': 'CERTS#DUE', ':dueSk': `${input.completedAt}#${input.courseId}#${input.learnerId}` }
              : {}),
          },
        },
      },
      {
        Put: {
          TableName: table,
          Item: { ...enrollmentKeys.activity(input.learnerId, input.day), type: 'ActivityDay', learnerId: input.learnerId, day: input.day, lastAt: input.at },
        },
      },
      ...reportUpdate(input.courseId, input.learnerId, input.report),
    ]);
    return cancelled ? 'changed' : 'completed';
  },

  async reachLesson({ courseId, learnerId, report }) {
    const marks = enrollmentMarks(report);
    if (marks.sets.length === 0) return 'reached';
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: enrollmentKeys.enrollment(courseId, learnerId),
          UpdateExpression: `SET ${marks.sets.join(', ')}`,
          ConditionExpression: ['#status = :active', ...marks.conditions].join(' AND '),
          ExpressionAttributeNames: { '#status': 'status', ...marks.names },
          ExpressionAttributeValues: { ':active': 'active', ...marks.values },
        },
      },
      ...reportUpdate(courseId, learnerId, report),
    ]);
    return cancelled ? 'changed' : 'reached';
  },

  async activityDays(learnerId, fromDay) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `USER#${learnerId}`, ':from': `${ACTIVITY_PREFIX}${fromDay}`, ':to': `${ACTIVITY_PREFIX}9999-12-31` },
      ProjectionExpression: 'sk',
    });
    return items.map((item) => String(item['sk']).slice(ACTIVITY_PREFIX.length));
  },
});

/**
 * Migration (issue 37, bin/backfill.ts; the local cloud's seed once per table): enrolments removed before a
 * removal moved them to the learner's past courses (they left gsi2 altogether then) get that place, so the account
 * deletion and the data export reach what their course kept about the person. Only a removed one is written (the
 * update's condition); an active one always has its gsi2 keys. Idempotent: a second run finds none without them.
 */
export const backfillLeftEnrollmentsIndex = async (): Promise<number> => {
  let indexed = 0;
  await forEachOfType(
    'Enrollment',
    async (item) => {
      const parsed = z.object({ courseId: z.string(), learnerId: z.string() }).safeParse(item);
      if (!parsed.success) return;
      const { courseId, learnerId } = parsed.data;
      const done = await writeIf(() =>
        documentClient().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: enrollmentKeys.enrollment(courseId, learnerId),
            UpdateExpression: `SET ${LEFT_SET}`,
            ConditionExpression: '#status = :removed AND attribute_not_exists(gsi2pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':removed': 'removed', ...leftValues(learnerId, courseId) },
          }),
        ),
      );
      if (done) indexed++;
    },
    { filter: 'attribute_not_exists(gsi2pk)', projection: 'courseId, learnerId' },
  );
  return indexed;
};

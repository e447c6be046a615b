import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { courseSummary, type Lesson, lessonRecord, lessonRelease, LESSONS_PER_COURSE_MAX, releaseOf } from '#contracts/courses.ts';
import { isoDate } from '#contracts/common.ts';
import { type CourseFile, courseFile } from '#contracts/files.ts';
import type { CourseOutline, CourseRecord, CourseRepository, CreatorCounterDeltas, OutlineLesson, StoredCourse } from '#core/ports.ts';
import { countersUpdate, setCountersOnce } from '#data/counters.ts';
import { dripKeys } from '#data/drip.ts';
import { readCounter, readCounters, shardedCounter, shardUpdate } from '#data/sharded-counters.ts';
import { batchGet, batchWrite, documentClient, backfillIndexKeys, forEachOfType, indexPage, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * courses and lessons (access patterns 8: a creator's courses, newest first; 9: a course with its ordered lessons).
 * Course:    pk COURSE#<courseId>   sk COURSE             gsi1pk CREATOR#<creatorId>#COURSES  gsi1sk <createdAt>#<courseId>
 *                                                         gsi2pk COURSES  gsi2sk <createdAt>#<courseId>  (every course: admin)
 *            creatorId, title, description, status, lessonCount (moved with each lesson), createdAt, updatedAt,
 *            titleChangedAt (set with each new title: the version the 'course-changed' run copies it under onto the
 *            enrolments' and licences' `courseTitle`/`courseTitleAt`)
 *            (its learners are counted apart, sharded: ENROLLED#<courseId>#<0..15> below, summed into `enrolledCount`)
 * Lesson:    pk COURSE#<courseId>   sk LESSON#<lessonId>  title, kind, body (sanitized HTML) | videoUrl, position, ...
 * Outline:   pk COURSE#<courseId>   sk OUTLINE            rev, lessons [{id, title, kind, position, createdAt,
 *            release}] in order, no bodies: what a learner's lesson reads need (readOutline, eventually
 *            consistent, with the course item in one BatchGetItem); the lesson's body is then read alone (readLesson:
 *            its item and its FILE#<lessonId># items), or every lesson for the whole course (readLessons, one Query).
 *            Every lesson write moves the course item's `outlineRev` (ADD 1, in its transaction) and then rebuilds
 *            the outline from the lessons, put only over an older `rev`; a reader whose outline's rev is not the
 *            course's (a writer died before rebuilding, a course from before outlines) reads the lessons' outline
 *            fields instead (backfillCourseOutlines writes them).
 * File:      pk COURSE#<courseId>   sk FILE#<lessonId>#<fileId>  (functions/data/files.ts)
 * Counters:  pk CREATORSTATS#<creatorId>#<0..15> sk STATS  courses, students, completions, certificates (ADD to one shard
 *            in the writes they count: courses and certificates; students and completions from the table's stream, by
 *            the stream aggregator, data/stream-counters.ts, decision 0043; read summed: data/sharded-counters.ts)
 *            Enrolled:  pk ENROLLED#<courseId>#<0..15> sk COUNT  enrolled (from the table's stream, as students)
 * The course's enrolments (`ENROLL#<learnerId>`, functions/data/enrollments.ts) share its partition: deleting a course
 * deletes the course item in the request (with its counters) and the 'course-changed' job removes the rest of the
 * partition in batches (removeDeletedCourseBatch; docs/decisions/0034-course-changes.md). `position` is a rank: the
 * lessons are read in its order and answered numbered 0..n-1, so deleting a lesson moves no other.
 */
export const courseKeys = {
  course: (courseId: string) => ({ pk: `COURSE#${courseId}`, sk: 'COURSE' }),
  byCreator: (creatorId: string, createdAt: string, courseId: string) => ({ gsi1pk: `CREATOR#${creatorId}#COURSES`, gsi1sk: `${createdAt}#${courseId}` }),
  all: (createdAt: string, courseId: string) => ({ gsi2pk: 'COURSES', gsi2sk: `${createdAt}#${courseId}` }),
  lesson: (courseId: string, lessonId: string) => ({ pk: `COURSE#${courseId}`, sk: `LESSON#${lessonId}` }),
  outline: (courseId: string) => ({ pk: `COURSE#${courseId}`, sk: 'OUTLINE' }),
  lessonPrefix: 'LESSON#',
  filePrefix: 'FILE#',
  enrollmentPrefix: 'ENROLL#',
};

/**
 * The titles of these courses where they live (the course items, one BatchGetItem per 100, eventually consistent);
 * a course that is gone has none. Lists of enrolments show these rather than their copies, so a rename shows at once
 * and a deleted course's enrolments (removed by its 'course-changed' run) are not listed meanwhile.
 */
export const liveCourseTitles = async (courseIds: readonly string[]): Promise<Map<string, string>> => {
  const ids = [...new Set(courseIds)];
  const titles = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 100) {
    const found = await batchGet(ids.slice(i, i + 100).map((id) => courseKeys.course(id)), { projection: 'pk, title' });
    for (const item of found) titles.set(String(item['pk']).slice('COURSE#'.length), String(item['title']));
  }
  return titles;
};

/**
 * A creator's dashboard counters, sharded (data/sharded-counters.ts): pk CREATORSTATS#<creatorId>#<0..15> sk STATS,
 * read as the sum of the shards (readCreatorStats; the CRM's counters read the same keys).
 */
export const creatorStats = (creatorId: string) => shardedCounter(`CREATORSTATS#${creatorId}`, 'STATS', { legacy: legacyCreatorStatsKey(creatorId) });

/** The item from before the shards: read with them until the migration moves it into shard 0. */
export const legacyCreatorStatsKey = (creatorId: string) => ({ pk: `CREATOR#${creatorId}`, sk: 'STATS' });

/**
 * A course's active enrolments, sharded: pk ENROLLED#<courseId>#<0..15> sk COUNT  enrolled (ADD by the enrolment
 * transactions, the learner's id picking the shard). Not on the course item: that one is projected whole into the
 * creator's course list index, and would be written by every enrolment of a sale. A course item from before keeps its
 * own `enrolledCount` until the migration moves it into shard 0: the figure read is the item's plus the shards'.
 */
export const enrolledCounter = (courseId: string) => shardedCounter(`ENROLLED#${courseId}`, 'COUNT');

/** The courses with their enrolled counts summed from the shards (all in one set of BatchGetItems). */
const withEnrolled = async <T extends { id: string; enrolledCount: number }>(courses: T[]): Promise<T[]> => {
  if (courses.length === 0) return courses;
  const counts = await readCounters(
    courses.map((course) => enrolledCounter(course.id)),
    { attributes: ['enrolled'] },
  );
  return courses.map((course, i) => ({ ...course, enrolledCount: Math.max(0, course.enrolledCount + (counts[i]?.['enrolled'] ?? 0)) }));
};

/** A creator's counters: the sum of their shards. */
export const readCreatorStats = (creatorId: string, options: { consistent?: boolean } = {}) => readCounter(creatorStats(creatorId), options);

/**
 * The platform-wide sums of the creators' course figures (the admin's Active Courses card): every course (moved beside
 * `creatorStatsUpdate` in the course's transactions), active enrolments and those completed (from the table's stream
 * with the creator's, data/stream-counters.ts).
 */
export const platformCourseCounters = (deltas: Pick<CreatorCounterDeltas, 'courses' | 'students' | 'completions'>) => ({
  courses_total: deltas.courses ?? 0,
  enrollments_active: deltas.students ?? 0,
  enrollments_completed: deltas.completions ?? 0,
});

/**
 * The transaction item that moves one shard of a creator's counters (none when nothing moves): the only way they
 * change. `by` (the learner, the course, the certificate) picks the shard; without it a random one.
 */
export const creatorStatsUpdate = (creatorId: string, deltas: CreatorCounterDeltas, by?: string) => shardUpdate(creatorStats(creatorId), deltas, { by, type: 'CreatorStats' });

const courseItem = courseSummary.extend({ creatorId: z.string(), updatedAt: isoDate, enrolledCount: z.number().int().min(0).default(0) });
const toCourse = (item: unknown): CourseRecord => courseItem.parse(item);

/**
 * Lessons in their stored order, numbered 0..n-1 (ties, from two lessons added at once, by creation), each with its
 * files, oldest first.
 */
const inOrder = (items: Record<string, unknown>[]): Lesson[] => {
  const files = new Map<string, CourseFile[]>();
  for (const item of items.filter((i) => String(i['sk']).startsWith(courseKeys.filePrefix))) {
    const file = courseFile.parse(item);
    files.set(file.lessonId, [...(files.get(file.lessonId) ?? []), file]);
  }
  return items
    .filter((item) => String(item['sk']).startsWith(courseKeys.lessonPrefix))
    .map((item) => lessonRecord.parse(item))
    .sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((found, position) => ({
      ...found,
      position,
      files: (files.get(found.id) ?? []).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
    }));
};

const ownedBy = (creatorId: string) => ({
  ConditionExpression: 'attribute_exists(pk) AND creatorId = :me',
  ExpressionAttributeValues: { ':me': creatorId },
});

const outlineLesson = z.object({
  id: z.string(),
  title: z.string(),
  kind: lessonRecord.shape.kind,
  position: z.number(),
  createdAt: isoDate,
  /** Drip release; absent (outlines and lessons from before it): immediate. */
  release: lessonRelease.optional(),
});

/** The lessons' outline fields (no body, video or quiz), in order and numbered as readCourse numbers them. */
const outlineFromLessons = async (courseId: string, consistent: boolean): Promise<OutlineLesson[]> => {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :lesson)',
    ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk, ':lesson': courseKeys.lessonPrefix },
    ProjectionExpression: 'id, title, kind, #position, createdAt, #release',
    ExpressionAttributeNames: { '#position': 'position', '#release': 'release' },
    ConsistentRead: consistent,
  });
  return items
    .map((item) => outlineLesson.parse(item))
    .sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((lesson, position) => ({ ...lesson, position }));
};

/**
 * The course's outline rebuilt after a lesson write: the course item's `outlineRev` first, then the lessons
 * (consistently: they hold every write up to that rev), put only over an older rev, so a slower writer never puts back
 * an outline older than a faster one's. A writer that dies before this leaves the rev ahead: readers fall back.
 */
export const rebuildOutline = async (courseId: string): Promise<void> => {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: courseKeys.course(courseId), ProjectionExpression: 'outlineRev', ConsistentRead: true }),
  );
  if (!Item) return;
  const rev = Number(Item['outlineRev'] ?? 0);
  const lessons = await outlineFromLessons(courseId, true);
  await Promise.all([writeDripRules(courseId, rev, lessons), writeIf(() =>
    documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...courseKeys.outline(courseId), type: 'CourseOutline', courseId, rev, lessons },
        ConditionExpression: 'attribute_not_exists(pk) OR #rev < :rev',
        ExpressionAttributeNames: { '#rev': 'rev' },
        ExpressionAttributeValues: { ':rev': rev },
      }),
    ),
  )]);
};

/**
 * The course's drip rules (data/drip.ts: its non-immediate lessons' releases, what a new enrolment plans from) beside
 * the outline, under the same rev: put while the course has drip lessons, deleted when it has none left (a course that
 * never had any writes nothing: the delete's condition fails on no item).
 */
const writeDripRules = (courseId: string, rev: number, lessons: OutlineLesson[]) => {
  const drip = lessons.flatMap(({ id, release }) => (release && release.kind !== 'immediate' ? [{ id, release }] : []));
  const olderRev = { ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': rev } };
  return writeIf(() =>
    drip.length > 0
      ? documentClient().send(
          new PutCommand({ TableName: tableName(), Item: { ...dripKeys.rules(courseId), type: 'DripRules', courseId, rev, lessons: drip }, ConditionExpression: 'attribute_not_exists(pk) OR #rev < :rev', ...olderRev }),
        )
      : documentClient().send(new DeleteCommand({ TableName: tableName(), Key: dripKeys.rules(courseId), ConditionExpression: '#rev < :rev', ...olderRev })),
  );
};

/**
 * After a lesson write that succeeded: the outline rebuilt, or left behind if that fails (a timeout under load). The
 * write stands either way (failing it would make the editor send it again); the course's `outlineRev` being ahead
 * makes the readers read around the outline until the next lesson write or the backfill rebuilds it.
 */
const refreshOutline = (courseId: string): Promise<void> => rebuildOutline(courseId).catch(() => undefined);

/**
 * The course item and its outline for a learner's lesson (one BatchGetItem, eventually consistent: a lesson added a
 * moment ago may take a moment to show); no lesson body is read. An outline whose rev is not the course's is not
 * trusted: the lessons' outline fields are read instead (one Query, projected).
 */
export const readOutline = async (courseId: string): Promise<CourseOutline | undefined> => {
  const items = await batchGet([courseKeys.course(courseId), courseKeys.outline(courseId)]);
  const course = items.find((item) => item['sk'] === 'COURSE');
  if (!course) return undefined;
  const outline = items.find((item) => item['sk'] === 'OUTLINE');
  const current = outline !== undefined && Number(outline['rev']) === Number(course['outlineRev'] ?? 0);
  const lessons = current ? z.array(outlineLesson).parse(outline['lessons']) : await outlineFromLessons(courseId, false);
  return { ...toCourse(course), lessons };
};

/**
 * A one-off migration (bin/backfill.ts): every course gets its outline item (those from before outlines, or whose
 * last lesson writer died before rebuilding it). Idempotent: an outline already at the course's rev is kept.
 */
export const backfillCourseOutlines = async (): Promise<number> => {
  let built = 0;
  await forEachOfType('Course', async (item) => {
    await refreshOutline(String(item['id']));
    built++;
  }, { projection: 'id' });
  return built;
};

/**
 * A course with its lessons and their files (one GetItem and one Query): on its own, for the functions that read a
 * course and write none of it (licences, enrolments, file links), so the rest of this module stays out of their bundles.
 */
export const readCourse = async (courseId: string): Promise<StoredCourse | undefined> => {
  // The enrolments (ENROLL#) sort between the course item and the files (FILE#), which sort just before the lessons
  // (LESSON#): a GetItem and one Query from FILE# up to LESSON$ ('$' follows '#'), side by side.
  const [found, lessons] = await Promise.all([
    documentClient().send(new GetCommand({ TableName: tableName(), Key: courseKeys.course(courseId), ConsistentRead: true })),
    queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :files AND :lessonsEnd',
      ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk, ':files': courseKeys.filePrefix, ':lessonsEnd': 'LESSON$' },
      ConsistentRead: true,
    }),
  ]);
  if (!found.Item) return undefined;
  const [course] = await withEnrolled([toCourse(found.Item)]);
  return { ...course!, lessons: inOrder(lessons) };
};

/**
 * The course's lessons with their files, for a learner who may read it (after its outline, which decided that): one
 * Query from FILE# up to LESSON$, eventually consistent, no course item, no enrolled count.
 */
export const readLessons = async (courseId: string): Promise<Lesson[]> =>
  inOrder(
    await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :files AND :lessonsEnd',
      ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk, ':files': courseKeys.filePrefix, ':lessonsEnd': 'LESSON$' },
    }),
  );

/**
 * One lesson with its files (FILE#<lessonId>#), oldest first: a GetItem and a Query side by side, eventually
 * consistent. Its `position` is the stored rank: the outline numbers it.
 */
export const readLesson = async (courseId: string, lessonId: string): Promise<Lesson | undefined> => {
  const [found, files] = await Promise.all([
    documentClient().send(new GetCommand({ TableName: tableName(), Key: courseKeys.lesson(courseId, lessonId) })),
    queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :files)',
      ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk, ':files': `${courseKeys.filePrefix}${lessonId}#` },
    }),
  ]);
  if (!found.Item) return undefined;
  return {
    ...lessonRecord.parse(found.Item),
    files: files.map((item) => courseFile.parse(item)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
  };
};

/** A lesson's text and kind, in a transaction with the course's ownership (the files' routes use it alone). */
export const updateLessonText: CourseRepository['updateLesson'] = async ({ creatorId, lesson: changed }) => {
  const cancelled = await transact([
    {
      Update: {
        TableName: tableName(),
        Key: courseKeys.course(changed.courseId),
        UpdateExpression: 'ADD outlineRev :one',
        ConditionExpression: ownedBy(creatorId).ConditionExpression,
        ExpressionAttributeValues: { ':me': creatorId, ':one': 1 },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: courseKeys.lesson(changed.courseId, changed.id),
        // Not the position: a reorder at the same moment keeps its word.
        UpdateExpression: 'SET #title = :title, #kind = :kind, #body = :body, #videoUrl = :videoUrl, #quiz = :quiz, #assignment = :assignment, #release = :release, #updatedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: {
          '#title': 'title',
          '#kind': 'kind',
          '#body': 'body',
          '#videoUrl': 'videoUrl',
          '#quiz': 'quiz',
          '#assignment': 'assignment',
          '#release': 'release',
          '#updatedAt': 'updatedAt',
        },
        ExpressionAttributeValues: {
          ':title': changed.title,
          ':kind': changed.kind,
          ':body': changed.body,
          ':videoUrl': changed.videoUrl,
          // The lesson's task by kind (null when it is not that kind): a switch of kind drops the other's.
          ':quiz': changed.quiz ?? null,
          ':assignment': changed.assignment ?? null,
          // A lesson saved before drip has no release: it is immediate, written as such.
          ':release': releaseOf(changed),
          ':at': changed.updatedAt,
        },
      },
    },
  ]);
  if (cancelled) return 'gone';
  await refreshOutline(changed.courseId);
  return 'updated';
};

export const dynamoCourses = (): CourseRepository => ({
  async create(course) {
    // The learners are counted on the course's enrolled shards, not on the item (enrolledCounter).
    const { enrolledCount: _counted, ...stored } = course;
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...courseKeys.course(course.id),
            ...courseKeys.byCreator(course.creatorId, course.createdAt, course.id),
            ...courseKeys.all(course.createdAt, course.id),
            type: 'Course',
            ...stored,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...creatorStatsUpdate(course.creatorId, { courses: 1 }),
      ...countersUpdate(platformCourseCounters({ courses: 1 })),
    ]);
    if (cancelled) throw new Error(`Course id ${course.id} is already taken.`);
  },

  getCourse: readCourse,

  getOutline: readOutline,

  getLessons: readLessons,

  getLesson: readLesson,

  async listByCreator(creatorId, options = {}) {
    const items = await queryAll(
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': courseKeys.byCreator(creatorId, '', '').gsi1pk },
        ScanIndexForward: false,
        ...(options.limit ? { Limit: options.limit } : {}),
      },
      options.limit,
    );
    return withEnrolled(items.map(toCourse));
  },

  async pageByCreator(creatorId, { cursor, limit }) {
    const page = await indexPage({
      index: 'gsi1',
      partition: courseKeys.byCreator(creatorId, '', '').gsi1pk,
      cursor,
      limit,
      cursorKey: { fixed: { sk: 'COURSE' }, sortPrefix: { name: 'pk', prefix: 'COURSE#' } },
    });
    return { items: await withEnrolled(page.items.map(toCourse)), nextCursor: page.nextCursor };
  },

  async listAll(cursor, limit) {
    const page = await indexPage({
      index: 'gsi2',
      partition: courseKeys.all('', '').gsi2pk,
      cursor,
      limit,
      cursorKey: { fixed: { sk: 'COURSE' }, sortPrefix: { name: 'pk', prefix: 'COURSE#' } },
    });
    return { items: await withEnrolled(page.items.map(toCourse)), nextCursor: page.nextCursor };
  },

  async update({ courseId, creatorId, changes }) {
    const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
    const set = {
      UpdateExpression: `SET ${fields.map(([name]) => `#${name} = :${name}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
      ExpressionAttributeValues: { ':me': creatorId, ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])) },
    };
    if (changes.status !== undefined) {
      // A status that changes moves the platform's published-courses counter in the same transaction; when it does not
      // change (or the course is not the caller's), the condition fails and the plain update below decides.
      const cancelled = await transact([
        {
          Update: {
            TableName: tableName(),
            Key: courseKeys.course(courseId),
            ...set,
            ConditionExpression: `${ownedBy(creatorId).ConditionExpression} AND #status <> :status`,
          },
        },
        ...countersUpdate({ courses_published: changes.status === 'published' ? 1 : -1 }),
      ]);
      if (!cancelled) {
        const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: courseKeys.course(courseId), ConsistentRead: true }));
        return Item ? (await withEnrolled([toCourse(Item)]))[0] : undefined;
      }
    }
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: courseKeys.course(courseId),
          ...set,
          ConditionExpression: ownedBy(creatorId).ConditionExpression,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return (await withEnrolled([toCourse(Attributes)]))[0];
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return undefined;
      throw error;
    }
  },

  async delete({ courseId, creatorId }) {
    // Only the course item and its own counters: its enrolments (up to hundreds of thousands) leave with the
    // 'course-changed' run the route starts next (removeDeletedCourseBatch below), their counters with them.
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: courseKeys.course(courseId), ProjectionExpression: '#status', ExpressionAttributeNames: { '#status': 'status' }, ConsistentRead: true }),
    );
    if (!Item) return false;
    const wasPublished = Item['status'] === 'published';
    const cancelled = await transact([
      {
        Delete: {
          TableName: tableName(),
          Key: courseKeys.course(courseId),
          // The status read above still holds: the published counter moves by what it was.
          ConditionExpression: `${ownedBy(creatorId).ConditionExpression} AND #status = :status`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':me': creatorId, ':status': Item['status'] },
        },
      },
      ...creatorStatsUpdate(creatorId, { courses: -1 }),
      ...countersUpdate({ courses_published: wasPublished ? -1 : 0, ...platformCourseCounters({ courses: -1 }) }),
    ]);
    return !cancelled;
  },

  async createLesson({ creatorId, lesson: created }) {
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...courseKeys.lesson(created.courseId, created.id), type: 'Lesson', ...lessonRecord.parse(created), release: releaseOf(created) },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: courseKeys.course(created.courseId),
          UpdateExpression: 'ADD lessonCount :one, outlineRev :one SET updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND creatorId = :me AND lessonCount < :max',
          ExpressionAttributeValues: { ':one': 1, ':at': created.createdAt, ':me': creatorId, ':max': LESSONS_PER_COURSE_MAX },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);
    if (!cancelled) {
      await refreshOutline(created.courseId);
      return 'created';
    }
    return cancelled.items[1]?.['creatorId'] === creatorId ? 'full' : 'gone';
  },

  updateLesson: updateLessonText,

  async deleteLesson({ creatorId, courseId, lessonId, updatedAt }) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: courseKeys.lesson(courseId, lessonId), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: courseKeys.course(courseId),
          UpdateExpression: 'ADD lessonCount :minusOne, outlineRev :one SET updatedAt = :at',
          ...ownedBy(creatorId),
          ExpressionAttributeValues: { ':me': creatorId, ':minusOne': -1, ':one': 1, ':at': updatedAt },
        },
      },
    ]);
    if (cancelled) return 'gone';
    await refreshOutline(courseId);
    return 'deleted';
  },

  async reorderLessons({ creatorId, courseId, order, updatedAt }) {
    // A transaction holds 100 items: the course's check or update with up to 99 lessons each.
    for (let start = 0; start < order.length; start += 99) {
      const cancelled = await transact([
        {
          Update: {
            TableName: tableName(),
            Key: courseKeys.course(courseId),
            UpdateExpression: 'SET updatedAt = :at ADD outlineRev :one',
            ...ownedBy(creatorId),
            ExpressionAttributeValues: { ':me': creatorId, ':at': updatedAt, ':one': 1 },
          },
        },
        ...order.slice(start, start + 99).map((lessonId, i) => ({
          Update: {
            TableName: tableName(),
            Key: courseKeys.lesson(courseId, lessonId),
            UpdateExpression: 'SET #position = :position',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#position': 'position' },
            ExpressionAttributeValues: { ':position': start + i },
          },
        })),
      ]);
      if (cancelled) return 'gone';
    }
    await refreshOutline(courseId);
    return 'reordered';
  },
});

/** The course item's rename stamp (the 'course-changed' job checks its run is still the newest); undefined: gone. */
export const courseTitleVersion = async (courseId: string): Promise<{ titleChangedAt?: string } | undefined> => {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: courseKeys.course(courseId), ProjectionExpression: 'pk, titleChangedAt', ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return typeof Item['titleChangedAt'] === 'string' ? { titleChangedAt: Item['titleChangedAt'] } : {};
};

/** Items of a deleted course's partition removed per batch: the enrolments among them in one transaction (100 at most). */
const REMOVE_BATCH = 90;

/**
 * One batch of a deleted course's partition, for the 'course-changed' job: the first REMOVE_BATCH items left (read
 * consistently, so what a batch removed is never read again). Its enrolments go in ONE transaction, each delete
 * conditioned on the status it was read with: a batch retried after a kill finds the removed ones gone, and a
 * transaction that loses a race is simply read again. The creator's and the platform's learner figures (active ones
 * out, completed ones out of completions) follow each enrolment's removal from the table's stream (decision 0040), once. The lessons, the files' items and
 * the rest go by BatchWriteItem. 'present' when the course item is (still) there; 'done' when nothing is left.
 */
export const removeDeletedCourseBatch = async (courseId: string, _creatorId: string): Promise<{ enrollments: number; other: number } | 'done' | 'present'> => {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk },
      ProjectionExpression: 'pk, sk, #status, completedAt',
      ExpressionAttributeNames: { '#status': 'status' },
      ConsistentRead: true,
      Limit: REMOVE_BATCH,
    }),
  );
  if (Items.length === 0) return 'done';
  if (Items.some((item) => item['sk'] === 'COURSE')) return 'present';
  const enrollments = Items.filter((item) => String(item['sk']).startsWith(courseKeys.enrollmentPrefix));
  const other = Items.filter((item) => !String(item['sk']).startsWith(courseKeys.enrollmentPrefix));
  if (enrollments.length > 0) {
    // The creator's and the platform's figures follow the enrolments' removal from the table's stream (decision 0040).
    const cancelled = await transact([
      ...enrollments.map((item) => ({
        Delete: {
          TableName: tableName(),
          Key: { pk: item['pk'], sk: item['sk'] },
          ExpressionAttributeNames: { '#status': 'status' },
          ...(item['status'] === undefined
            ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#status)' }
            : { ConditionExpression: '#status = :status', ExpressionAttributeValues: { ':status': item['status'] } }),
        },
      })),
    ]);
    // Lost a race (a batch delivered twice at once): nothing was written; the next batch reads what is left.
    if (cancelled) return { enrollments: 0, other: 0 };
  }
  await batchWrite(other.map((item) => ({ DeleteRequest: { Key: { pk: item['pk'], sk: item['sk'] } } })));
  return { enrollments: enrollments.length, other: other.length };
};

/**
 * A one-off migration, never on a request path: gives course items written before the all-courses index (gsi2
 * `COURSES`) its keys, so the admin's course list shows them. A Scan of the table's course items that lack them, then a
 * conditional update each (a course deleted meanwhile is skipped). Running it again finds nothing to do. Answers how
 * many it indexed. Run by the local seed once per table and, for a deployed table, by `npm run backfill`.
 */
/**
 * The platform's course figures (`courses_total`, `enrollments_active`, `enrollments_completed`) summed from the
 * creators' counters, once: set only where none of them exists yet (a table from before they were counted), so a
 * second run changes nothing. The local cloud runs it before it seeds anything.
 */
export const backfillCourseFigures = async (): Promise<{ courses: number; enrollments: number; completed: number } | undefined> => {
  const sums = { courses: 0, enrollments: 0, completed: 0 };
  await forEachOfType('CreatorStats', async (item) => {
    const n = (name: string) => Math.max(0, Number(item[name] ?? 0) || 0);
    sums.courses += n('courses');
    sums.enrollments += n('students');
    sums.completed += n('completions');
  }, { projection: 'courses, students, completions' });
  const set = await setCountersOnce({ courses_total: sums.courses, enrollments_active: sums.enrollments, enrollments_completed: sums.completed });
  return set ? sums : undefined;
};

export const backfillCourseIndex = (): Promise<number> =>
  backfillIndexKeys({
    type: 'Course',
    index: 'gsi2',
    projection: 'id, createdAt',
    keysOf: (item) => {
      // An item without the fields to index (a partial item a test or a tool wrote) is not a course to list: skipped.
      const course = z.object({ id: z.string(), createdAt: isoDate }).safeParse(item);
      if (!course.success) return undefined;
      const { gsi2pk, gsi2sk } = courseKeys.all(course.data.createdAt, course.data.id);
      return { key: courseKeys.course(course.data.id), pk: gsi2pk, sk: gsi2sk };
    },
  });

import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { courseSummary, type Lesson, lesson, LESSONS_PER_COURSE_MAX } from '#contracts/courses.ts';
import { isoDate } from '#contracts/common.ts';
import type { CourseRecord, CourseRepository, CreatorCounterDeltas } from '#core/ports.ts';
import { documentClient, tableName, transact } from '#data/table.ts';

/**
 * courses and lessons (access patterns 8: a creator's courses, newest first; 9: a course with its ordered lessons).
 * Course:    pk COURSE#<courseId>   sk COURSE             gsi1pk CREATOR#<creatorId>#COURSES  gsi1sk <createdAt>#<courseId>
 *            creatorId, title, description, status, lessonCount (moved with each lesson), enrolledCount (moved by the
 *            enrolment writes), createdAt, updatedAt
 * Lesson:    pk COURSE#<courseId>   sk LESSON#<lessonId>  title, kind, body (sanitized HTML) | videoUrl, position, ...
 * Counters:  pk CREATOR#<creatorId> sk STATS              courses, students, completions (ADD in the writes they count)
 * The course's enrolments (`ENROLL#<learnerId>`, functions/data/enrollments.ts) share its partition, so deleting a
 * course is one Query of the partition and deletes of what it found. `position` is a rank: the lessons are read in
 * its order and answered numbered 0..n-1, so deleting a lesson moves no other.
 */
export const courseKeys = {
  course: (courseId: string) => ({ pk: `COURSE#${courseId}`, sk: 'COURSE' }),
  byCreator: (creatorId: string, createdAt: string, courseId: string) => ({ gsi1pk: `CREATOR#${creatorId}#COURSES`, gsi1sk: `${createdAt}#${courseId}` }),
  lesson: (courseId: string, lessonId: string) => ({ pk: `COURSE#${courseId}`, sk: `LESSON#${lessonId}` }),
  lessonPrefix: 'LESSON#',
  enrollmentPrefix: 'ENROLL#',
};

export const creatorStatsKey = (creatorId: string) => ({ pk: `CREATOR#${creatorId}`, sk: 'STATS' });

/** The transaction item that moves a creator's counters (none when nothing moves): the only way they change. */
export const creatorStatsUpdate = (creatorId: string, deltas: CreatorCounterDeltas) => {
  const names = Object.entries(deltas).filter(([, delta]) => delta !== undefined && delta !== 0);
  if (names.length === 0) return [];
  return [
    {
      Update: {
        TableName: tableName(),
        Key: creatorStatsKey(creatorId),
        UpdateExpression: `ADD ${names.map(([name]) => `#${name} :${name}`).join(', ')} SET #type = :type`,
        ExpressionAttributeNames: { ...Object.fromEntries(names.map(([name]) => [`#${name}`, name])), '#type': 'type' },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map(([name, delta]) => [`:${name}`, delta])), ':type': 'CreatorStats' },
      },
    },
  ];
};

const courseItem = courseSummary.extend({ creatorId: z.string(), updatedAt: isoDate, enrolledCount: z.number().int().min(0).default(0) });
const toCourse = (item: unknown): CourseRecord => courseItem.parse(item);

/** Lessons in their stored order, numbered 0..n-1 (ties, from two lessons added at once, by creation). */
const inOrder = (items: Record<string, unknown>[]): Lesson[] =>
  items
    .map((item) => lesson.parse(item))
    .sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((found, position) => ({ ...found, position }));

/** Every item of one Query, page after page. */
const queryAll = async (input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>, limit = Infinity) => {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && items.length < limit);
  return items.slice(0, limit);
};

const ownedBy = (creatorId: string) => ({
  ConditionExpression: 'attribute_exists(pk) AND creatorId = :me',
  ExpressionAttributeValues: { ':me': creatorId },
});

export const dynamoCourses = (): CourseRepository => ({
  async create(course) {
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...courseKeys.course(course.id), ...courseKeys.byCreator(course.creatorId, course.createdAt, course.id), type: 'Course', ...course },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...creatorStatsUpdate(course.creatorId, { courses: 1 }),
    ]);
    if (cancelled) throw new Error(`Course id ${course.id} is already taken.`);
  },

  async getCourse(courseId) {
    // The enrolments sort between the course item and the lessons: a GetItem and a Query, side by side.
    const [found, lessons] = await Promise.all([
      documentClient().send(new GetCommand({ TableName: tableName(), Key: courseKeys.course(courseId), ConsistentRead: true })),
      queryAll({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :lesson)',
        ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk, ':lesson': courseKeys.lessonPrefix },
        ConsistentRead: true,
      }),
    ]);
    return found.Item ? { ...toCourse(found.Item), lessons: inOrder(lessons) } : undefined;
  },

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
    return items.map(toCourse);
  },

  async update({ courseId, creatorId, changes }) {
    const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: courseKeys.course(courseId),
          UpdateExpression: `SET ${fields.map(([name]) => `#${name} = :${name}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
          ...ownedBy(creatorId),
          ExpressionAttributeValues: { ':me': creatorId, ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toCourse(Attributes);
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return undefined;
      throw error;
    }
  },

  async delete({ courseId, creatorId }) {
    const { pk } = courseKeys.course(courseId);
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'pk, sk, #status, completedAt',
      ExpressionAttributeNames: { '#status': 'status' },
      ConsistentRead: true,
    });
    const active = items.filter((item) => String(item['sk']).startsWith(courseKeys.enrollmentPrefix) && item['status'] === 'active');
    const completed = active.filter((item) => typeof item['completedAt'] === 'string');
    // The course item and the counters together: once it is gone nothing can enrol into it or count it again.
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: courseKeys.course(courseId), ...ownedBy(creatorId) } },
      ...creatorStatsUpdate(creatorId, { courses: -1, students: -active.length, completions: -completed.length }),
    ]);
    if (cancelled) return false;
    const rest = items.filter((item) => item['sk'] !== 'COURSE').map((item) => ({ pk: item['pk'], sk: item['sk'] }));
    for (let i = 0; i < rest.length; i += 25) {
      let requests: { DeleteRequest: { Key: Record<string, unknown> } }[] | undefined = rest.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 0; requests && requests.length > 0 && attempt < 8; attempt++) {
        const { UnprocessedItems } = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
        requests = UnprocessedItems?.[tableName()] as typeof requests;
        if (requests?.length) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
    return true;
  },

  async createLesson({ creatorId, lesson: created }) {
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...courseKeys.lesson(created.courseId, created.id), type: 'Lesson', ...created },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: courseKeys.course(created.courseId),
          UpdateExpression: 'ADD lessonCount :one SET updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND creatorId = :me AND lessonCount < :max',
          ExpressionAttributeValues: { ':one': 1, ':at': created.createdAt, ':me': creatorId, ':max': LESSONS_PER_COURSE_MAX },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);
    if (!cancelled) return 'created';
    return cancelled.items[1]?.['creatorId'] === creatorId ? 'full' : 'gone';
  },

  async updateLesson({ creatorId, lesson: changed }) {
    const cancelled = await transact([
      { ConditionCheck: { TableName: tableName(), Key: courseKeys.course(changed.courseId), ...ownedBy(creatorId) } },
      {
        Update: {
          TableName: tableName(),
          Key: courseKeys.lesson(changed.courseId, changed.id),
          // Not the position: a reorder at the same moment keeps its word.
          UpdateExpression: 'SET #title = :title, #kind = :kind, #body = :body, #videoUrl = :videoUrl, #updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#title': 'title', '#kind': 'kind', '#body': 'body', '#videoUrl': 'videoUrl', '#updatedAt': 'updatedAt' },
          ExpressionAttributeValues: { ':title': changed.title, ':kind': changed.kind, ':body': changed.body, ':videoUrl': changed.videoUrl, ':at': changed.updatedAt },
        },
      },
    ]);
    return cancelled ? 'gone' : 'updated';
  },

  async deleteLesson({ creatorId, courseId, lessonId, updatedAt }) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: courseKeys.lesson(courseId, lessonId), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: courseKeys.course(courseId),
          UpdateExpression: 'ADD lessonCount :minusOne SET updatedAt = :at',
          ...ownedBy(creatorId),
          ExpressionAttributeValues: { ':me': creatorId, ':minusOne': -1, ':at': updatedAt },
        },
      },
    ]);
    return cancelled ? 'gone' : 'deleted';
  },

  async reorderLessons({ creatorId, courseId, order, updatedAt }) {
    // A transaction holds 100 items: the course's check or update with up to 99 lessons each.
    for (let start = 0; start < order.length; start += 99) {
      const cancelled = await transact([
        {
          Update: {
            TableName: tableName(),
            Key: courseKeys.course(courseId),
            UpdateExpression: 'SET updatedAt = :at',
            ...ownedBy(creatorId),
            ExpressionAttributeValues: { ':me': creatorId, ':at': updatedAt },
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
    return 'reordered';
  },
});

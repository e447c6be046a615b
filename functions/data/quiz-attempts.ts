import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { QuizAttemptRepository } from '#core/ports.ts';
import { enrollmentMarks, reportUpdate } from '#data/course-reports.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { documentClient, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * A learner's attempts at a quiz lesson (issue 15; docs/data-model.md "Quizzes"), in the course's partition (deleting
 * the course deletes them):
 * pk COURSE#<courseId>  sk QUIZ#<learnerId>#<lessonId>   title, attempts, bestScore, passed, lastCorrect, updatedAt
 * Written whole under `attempts = <the count read>` (or absent for the first), so concurrent submissions are
 * serialised: each recorded attempt was read after the one before it. With the attempt, in one transaction: the course
 * report's figures it moves (data/course-reports.ts) and, for a learner's first activity or first reach of the lesson,
 * the enrolment's marks (only while unset: a mark set meanwhile cancels the attempt, which the use case reads again).
 */
export const quizAttemptKeys = {
  attempts: (courseId: string, learnerId: string, lessonId: string) => ({ pk: `COURSE#${courseId}`, sk: `QUIZ#${learnerId}#${lessonId}` }),
};

const attemptsItem = z.object({
  courseId: z.string(),
  learnerId: z.string(),
  lessonId: z.string(),
  title: z.string(),
  attempts: z.number().int(),
  bestScore: z.number().int(),
  passed: z.boolean(),
  lastCorrect: z.array(z.boolean()),
  updatedAt: z.string(),
});

export const dynamoQuizAttempts = (): QuizAttemptRepository => ({
  async get(courseId, learnerId, lessonId) {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: quizAttemptKeys.attempts(courseId, learnerId, lessonId), ConsistentRead: true }),
    );
    return Item ? attemptsItem.parse(Item) : undefined;
  },

  async listByLearner(courseId, learnerId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':prefix': `QUIZ#${learnerId}#` },
    });
    return items.map((item) => attemptsItem.parse(item));
  },

  async record(state, seenAttempts, report) {
    const put = {
      TableName: tableName(),
      Item: { ...quizAttemptKeys.attempts(state.courseId, state.learnerId, state.lessonId), type: 'QuizAttempts', ...state },
      ...(seenAttempts === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'attempts = :seen', ExpressionAttributeValues: { ':seen': seenAttempts } }),
    };
    if (!report) return (await writeIf(() => documentClient().send(new PutCommand(put)))) ? 'recorded' : 'changed';
    const marks = enrollmentMarks(report);
    const cancelled = await transact([
      { Put: put },
      ...(marks.sets.length > 0
        ? [
            {
              Update: {
                TableName: tableName(),
                Key: enrollmentKeys.enrollment(state.courseId, state.learnerId),
                UpdateExpression: `SET ${marks.sets.join(', ')}`,
                ConditionExpression: ['#status = :active', ...marks.conditions].join(' AND '),
                ExpressionAttributeNames: { '#status': 'status', ...marks.names },
                ExpressionAttributeValues: { ':active': 'active', ...marks.values },
              },
            },
          ]
        : []),
      ...reportUpdate(state.courseId, state.learnerId, report),
    ]);
    return cancelled ? 'changed' : 'recorded';
  },
});

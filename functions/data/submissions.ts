import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { submissionStatuses } from '#contracts/submissions.ts';
import type { StoredSubmission, SubmissionRepository } from '#core/assignments/ports.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { documentClient, indexPage, tableName, transact } from '#data/table.ts';

/**
 * Assignments' submissions (issue 35 point 2; docs/data-model.md "Assignments").
 * Submission: pk SUBMISSION#<submissionId>  sk SUBMISSION   id, courseId, lessonId, lessonTitle, creatorId, learnerId,
 *                                                          learnerEmail, text, fileIds, status, submittedAt, feedback,
 *                                                          gradedAt, supersededBy
 *   while it is the latest: gsi1pk COURSE#<courseId>#SUBMISSIONS#<status>  gsi1sk <submittedAt>#<submissionId>
 *             the course's queue of one status in one index partition, read oldest first a page at a time from the
 *             cursor (never a scan, never a filter); a grade moves it to its new status's partition in the grade's
 *             write, a resubmission takes it out (REMOVE gsi1pk, gsi1sk; it stays readable by id, superseded)
 * Latest:     pk SUBMITTER#<courseId>#<learnerId>  sk LESSON#<lessonId>   submissionId: the learner's latest of the
 *             lesson, moved by each submission's transaction only while it still points where it was read pointing
 */
export const submissionKeys = {
  submission: (submissionId: string) => ({ pk: `SUBMISSION#${submissionId}`, sk: 'SUBMISSION' }),
  queue: (courseId: string, status: string) => `COURSE#${courseId}#SUBMISSIONS#${status}`,
  place: (s: Pick<StoredSubmission, 'courseId' | 'submittedAt' | 'id'>, status: string) => ({ gsi1pk: submissionKeys.queue(s.courseId, status), gsi1sk: `${s.submittedAt}#${s.id}` }),
  latest: (courseId: string, lessonId: string, learnerId: string) => ({ pk: `SUBMITTER#${courseId}#${learnerId}`, sk: `LESSON#${lessonId}` }),
};

const submissionItem = z.object({
  id: z.string(),
  courseId: z.string(),
  lessonId: z.string(),
  lessonTitle: z.string(),
  creatorId: z.string(),
  learnerId: z.string(),
  learnerEmail: z.string(),
  text: z.string(),
  fileIds: z.array(z.string()),
  status: z.enum(submissionStatuses),
  submittedAt: z.string(),
  feedback: z.string().nullable(),
  gradedAt: z.string().nullable(),
  supersededBy: z.string().nullable(),
}) satisfies z.ZodType<StoredSubmission>;
const toSubmission = (item: unknown): StoredSubmission => submissionItem.parse(item);

const getSubmission = async (submissionId: string): Promise<StoredSubmission | undefined> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: submissionKeys.submission(submissionId), ConsistentRead: true }));
  return Item ? toSubmission(Item) : undefined;
};

export const dynamoSubmissions = (): SubmissionRepository => ({
  get: getSubmission,

  async latest(courseId, lessonId, learnerId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: submissionKeys.latest(courseId, lessonId, learnerId), ConsistentRead: true }));
    const id = z.object({ submissionId: z.string() }).safeParse(Item);
    return id.success ? getSubmission(id.data.submissionId) : undefined;
  },

  async submit({ submission, previous }) {
    const pointer = submissionKeys.latest(submission.courseId, submission.lessonId, submission.learnerId);
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...submissionKeys.submission(submission.id), type: 'Submission', ...submission, ...submissionKeys.place(submission, submission.status) },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...pointer, type: 'LatestSubmission', submissionId: submission.id },
          ...(previous
            ? { ConditionExpression: 'submissionId = :previous', ExpressionAttributeValues: { ':previous': previous.id } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        },
      },
      ...(previous
        ? [
            {
              Update: {
                TableName: tableName(),
                Key: submissionKeys.submission(previous.id),
                UpdateExpression: 'SET supersededBy = :next REMOVE gsi1pk, gsi1sk',
                ConditionExpression: '#status = :revise AND supersededBy = :none',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':next': submission.id, ':revise': 'needs_revision', ':none': null },
              },
            },
          ]
        : []),
    ]);
    return !cancelled;
  },

  async pageByCourse(courseId, status, page) {
    const found = await indexPage({
      index: 'gsi1',
      partition: submissionKeys.queue(courseId, status),
      cursor: page.cursor,
      limit: page.limit,
      cursorKey: { fixed: { sk: 'SUBMISSION' }, sortPrefix: { name: 'pk', prefix: 'SUBMISSION#' } },
      oldestFirst: true,
    });
    return { items: found.items.map(toSubmission), nextCursor: found.nextCursor };
  },

  async grade({ submission, status, feedback, gradedAt, mail }) {
    const place = submissionKeys.place(submission, status);
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: submissionKeys.submission(submission.id),
          UpdateExpression: 'SET #status = :status, feedback = :feedback, gradedAt = :at, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
          ConditionExpression: '#status = :submitted AND supersededBy = :none',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status, ':feedback': feedback, ':at': gradedAt, ':gsi1pk': place.gsi1pk, ':gsi1sk': place.gsi1sk, ':submitted': 'submitted', ':none': null },
        },
      },
      ...(mail ? [mailQueuePut(mail)] : []),
    ]);
    return !cancelled;
  },
});

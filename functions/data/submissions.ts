import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { submissionStatuses } from '#contracts/submissions.ts';
import type { StoredSubmission, StoredSubmissionFile, SubmissionRepository } from '#core/assignments/ports.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { backfillIndexKeys, batchGet, documentClient, indexPage, tableName, transact } from '#data/table.ts';

/**
 * Assignments' submissions (issue 35 point 2; docs/data-model.md "Assignments").
 * Submission: pk SUBMISSION#<submissionId>  sk SUBMISSION   id, courseId, lessonId, lessonTitle, creatorId, learnerId,
 *                                                          learnerEmail, text, fileIds, files, status, submittedAt,
 *                                                          feedback, gradedAt, supersededBy
 *   while it is the latest: gsi1pk COURSE#<courseId>#SUBMISSIONS#<status>  gsi1sk <submittedAt>#<submissionId>
 *             the course's queue of one status in one index partition, read oldest first a page at a time from the
 *             cursor (never a scan, never a filter); a grade moves it to its new status's partition in the grade's
 *             write, a resubmission takes it out (REMOVE gsi1pk, gsi1sk; it stays readable by id, superseded)
 *   always:   gsi2pk SUBMISSIONS#<courseId>#<learnerId>  gsi2sk <submittedAt>#<submissionId>   every submission of the
 *             learner in the course, superseded ones too: what the account deletion erases (a superseded submission is
 *             named by no pointer). Submissions written before it get it from backfillSubmitterIndex.
 * Latest:     pk SUBMITTER#<courseId>#<learnerId>  sk LESSON#<lessonId>   submissionId: the learner's latest of the
 *             lesson, moved by each submission's transaction only while it still points where it was read pointing
 * File:       pk SUBMITTER#<courseId>#<learnerId>  sk FILE#<lessonId>#<fileId>   id, name, contentType, size, courseId,
 *             lessonId, learnerId, createdAt: a learner's upload for the lesson (its bytes at
 *             courses/<courseId>/<lessonId>/submissions/<learnerId>/<fileId>), read by key: only its learner's ids find it
 * Pending:    pk SUBMITTER#<courseId>#<learnerId>  sk PENDING   pending: the learner's submissions in the course waiting
 *             for review, +1 in each submission's transaction, -1 in each grade's (the CRM reads it by key)
 */
export const submissionKeys = {
  submission: (submissionId: string) => ({ pk: `SUBMISSION#${submissionId}`, sk: 'SUBMISSION' }),
  queue: (courseId: string, status: string) => `COURSE#${courseId}#SUBMISSIONS#${status}`,
  place: (s: Pick<StoredSubmission, 'courseId' | 'submittedAt' | 'id'>, status: string) => ({ gsi1pk: submissionKeys.queue(s.courseId, status), gsi1sk: `${s.submittedAt}#${s.id}` }),
  /** Every submission of a learner in a course (gsi2): the account deletion's way to the superseded ones. */
  submitter: (s: Pick<StoredSubmission, 'courseId' | 'learnerId' | 'submittedAt' | 'id'>) => ({ gsi2pk: `SUBMISSIONS#${s.courseId}#${s.learnerId}`, gsi2sk: `${s.submittedAt}#${s.id}` }),
  latest: (courseId: string, lessonId: string, learnerId: string) => ({ pk: `SUBMITTER#${courseId}#${learnerId}`, sk: `LESSON#${lessonId}` }),
  file: (courseId: string, lessonId: string, learnerId: string, fileId: string) => ({ pk: `SUBMITTER#${courseId}#${learnerId}`, sk: `FILE#${lessonId}#${fileId}` }),
  pending: (courseId: string, learnerId: string) => ({ pk: `SUBMITTER#${courseId}#${learnerId}`, sk: 'PENDING' }),
};

/** The pending counter moved by `by` (its item made by the first submission), as one write of a transaction. */
const movePending = (s: Pick<StoredSubmission, 'courseId' | 'learnerId'>, by: 1 | -1) => ({
  Update: {
    TableName: tableName(),
    Key: submissionKeys.pending(s.courseId, s.learnerId),
    UpdateExpression: 'SET #type = :type, courseId = :course, learnerId = :learner ADD #pending :by',
    ExpressionAttributeNames: { '#type': 'type', '#pending': 'pending' },
    ExpressionAttributeValues: { ':type': 'PendingSubmissions', ':course': s.courseId, ':learner': s.learnerId, ':by': by },
  },
});

const fileItem = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number(),
  courseId: z.string(),
  lessonId: z.string(),
  learnerId: z.string(),
  createdAt: z.string(),
}) satisfies z.ZodType<StoredSubmissionFile>;

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
  // Submissions handed in before learners could upload have no files.
  files: z.array(z.object({ id: z.string(), name: z.string(), contentType: z.string(), size: z.number() })).default([]),
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
          Item: { ...submissionKeys.submission(submission.id), type: 'Submission', ...submission, ...submissionKeys.place(submission, submission.status), ...submissionKeys.submitter(submission) },
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
      movePending(submission, 1),
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
      movePending(submission, -1),
      ...(mail ? [mailQueuePut(mail)] : []),
    ]);
    return !cancelled;
  },

  async putFile(file) {
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...submissionKeys.file(file.courseId, file.lessonId, file.learnerId, file.id), type: 'SubmissionFile', ...file } }),
    );
  },

  async getFiles(courseId, lessonId, learnerId, fileIds) {
    const keys = [...new Set(fileIds)].map((id) => submissionKeys.file(courseId, lessonId, learnerId, id));
    if (keys.length === 0) return [];
    return (await batchGet(keys)).map((item) => fileItem.parse(item));
  },

  async pendingCounts(enrolments) {
    const counts = new Map<string, number>();
    const keys = [...new Map(enrolments.map((e) => [`${e.courseId}#${e.learnerId}`, submissionKeys.pending(e.courseId, e.learnerId)])).values()];
    for (let i = 0; i < keys.length; i += 100) {
      for (const item of await batchGet(keys.slice(i, i + 100))) {
        const found = z.object({ courseId: z.string(), learnerId: z.string(), pending: z.number() }).parse(item);
        counts.set(`${found.courseId}#${found.learnerId}`, Math.max(0, found.pending));
      }
    }
    return counts;
  },
});

/**
 * Migration (issue 37, bin/backfill.ts): submissions written before their gsi2 get it, so the account deletion finds
 * the superseded ones too (no pointer names them). Idempotent: a second run finds none without it.
 */
export const backfillSubmitterIndex = (): Promise<number> =>
  backfillIndexKeys({
    type: 'Submission',
    index: 'gsi2',
    projection: 'id, courseId, learnerId, submittedAt',
    keysOf: (item) => {
      const parsed = z.object({ id: z.string(), courseId: z.string(), learnerId: z.string(), submittedAt: z.string() }).safeParse(item);
      if (!parsed.success) return undefined;
      const { gsi2pk, gsi2sk } = submissionKeys.submitter(parsed.data);
      return { key: submissionKeys.submission(parsed.data.id), pk: gsi2pk, sk: gsi2sk };
    },
  });

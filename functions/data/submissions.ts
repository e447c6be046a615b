import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { submissionStatuses } from '#contracts/submissions.ts';
import type { CourseSubmissionRemoval, StoredSubmission, StoredSubmissionFile, SubmissionRepository, UnnamedUploadRepository } from '#core/assignments/ports.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { backfillIndexKeys, batchGet, batchWrite, documentClient, dueIndexPage, indexPage, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Assignments' submissions (issue 35 point 2; docs/data-model.md "Assignments").
 * Submission: pk SUBMISSION#<submissionId>  sk SUBMISSION   id, courseId, lessonId, lessonTitle, creatorId, learnerId,
 *                                                          learnerEmail, text, fileIds, files, status, submittedAt,
 *                                                          feedback, gradedAt, supersededBy
 *   while it is the latest: gsi1pk COURSE#<courseId>#SUBMISSIONS#<status>  gsi1sk <submittedAt>#<submissionId>
 *             the course's queue of one status in one index partition, read oldest first a page at a time from the
 *             cursor (never a scan, never a filter); a grade moves it to its new status's partition in the grade's
 *             write, a resubmission takes it out (REMOVE gsi1pk, gsi1sk; it stays readable by id, superseded)
 *   always:   gsi2pk COURSE#<courseId>#SUBMISSIONS  gsi2sk <learnerId>#<submittedAt>#<submissionId>: every submission of
 *             the course, superseded ones too, a learner's together: the deleted course's run removes the whole
 *             partition a page at a time, the account deletion a learner's and the data export every one of a
 *             learner's, superseded marked (begins_with). Submissions written before it
 *             get it from backfillCourseSubmissionsIndex (bin/backfill.ts).
 * Latest:     pk SUBMITTER#<courseId>#<learnerId>  sk LESSON#<lessonId>   submissionId: the learner's latest of the
 *             lesson, moved by each submission's transaction only while it still points where it was read pointing
 * File:       pk SUBMITTER#<courseId>#<learnerId>  sk FILE#<lessonId>#<fileId>   id, name, contentType, size, courseId,
 *             lessonId, learnerId, createdAt: a learner's upload for the lesson (its bytes at
 *             courses/<courseId>/<lessonId>/submissions/<learnerId>/<fileId>), read by key: only its learner's ids find it
 *   until a submission names it (sparse): dueAt, expiresAt (TTL)  gsi3pk SUBMISSIONFILES#DUE
 *             gsi3sk <dueAt>#<courseId>#<learnerId>#<lessonId>#<fileId>: the sweep (core/assignments/unnamed-uploads.ts)
 *             reads `<= now`; the first submission naming it removes all four (on condition it is there and not
 *             `removing`, the sweep's mark, which it keeps, index keys and all, until the item is deleted)
 * Pending:    pk SUBMITTER#<courseId>#<learnerId>  sk PENDING   pending: the learner's submissions in the course waiting
 *             for review, +1 in each submission's transaction, -1 in each grade's (the CRM reads it by key)
 */
export const submissionKeys = {
  submission: (submissionId: string) => ({ pk: `SUBMISSION#${submissionId}`, sk: 'SUBMISSION' }),
  queue: (courseId: string, status: string) => `COURSE#${courseId}#SUBMISSIONS#${status}`,
  place: (s: Pick<StoredSubmission, 'courseId' | 'submittedAt' | 'id'>, status: string) => ({ gsi1pk: submissionKeys.queue(s.courseId, status), gsi1sk: `${s.submittedAt}#${s.id}` }),
  /** Every submission of a course (gsi2), a learner's together: the deleted course's run and the account deletion. */
  ofCourse: (s: Pick<StoredSubmission, 'courseId' | 'learnerId' | 'submittedAt' | 'id'>) => ({ gsi2pk: `COURSE#${s.courseId}#SUBMISSIONS`, gsi2sk: `${s.learnerId}#${s.submittedAt}#${s.id}` }),
  submitter: (courseId: string, learnerId: string) => `SUBMITTER#${courseId}#${learnerId}`,
  latest: (courseId: string, lessonId: string, learnerId: string) => ({ pk: submissionKeys.submitter(courseId, learnerId), sk: `LESSON#${lessonId}` }),
  file: (courseId: string, lessonId: string, learnerId: string, fileId: string) => ({ pk: submissionKeys.submitter(courseId, learnerId), sk: `FILE#${lessonId}#${fileId}` }),
  pending: (courseId: string, learnerId: string) => ({ pk: submissionKeys.submitter(courseId, learnerId), sk: 'PENDING' }),
  unnamedDue: (f: Pick<StoredSubmissionFile, 'courseId' | 'lessonId' | 'learnerId' | 'id'>, dueAt: string) => ({
    gsi3pk: UNNAMED_DUE,
    gsi3sk: `${dueAt}#${f.courseId}#${f.learnerId}#${f.lessonId}#${f.id}`,
  }),
};

/** The sparse due index of uploads no submission named yet (on gsi3, as the other due work). */
export const UNNAMED_DUE = 'SUBMISSIONFILES#DUE';

/** Each named file off the sweep's index and TTL, only while its upload is there and the sweep has not claimed it. */
const nameFiles = (s: Pick<StoredSubmission, 'courseId' | 'lessonId' | 'learnerId' | 'fileIds'>) =>
  [...new Set(s.fileIds)].map((id) => ({
    Update: {
      TableName: tableName(),
      Key: submissionKeys.file(s.courseId, s.lessonId, s.learnerId, id),
      UpdateExpression: 'REMOVE dueAt, expiresAt, gsi3pk, gsi3sk',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(removing)',
    },
  }));

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
          Item: { ...submissionKeys.submission(submission.id), type: 'Submission', ...submission, ...submissionKeys.place(submission, submission.status), ...submissionKeys.ofCourse(submission) },
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
      ...nameFiles(submission),
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

  async putFile(file, unnamed) {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...submissionKeys.file(file.courseId, file.lessonId, file.learnerId, file.id), type: 'SubmissionFile', ...file, ...unnamed, ...submissionKeys.unnamedDue(file, unnamed.dueAt) },
      }),
    );
  },

  async getFiles(courseId, lessonId, learnerId, fileIds) {
    const keys = [...new Set(fileIds)].map((id) => submissionKeys.file(courseId, lessonId, learnerId, id));
    if (keys.length === 0) return [];
    return (await batchGet(keys)).filter((item) => item['removing'] === undefined).map((item) => fileItem.parse(item));
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

/** The uploads no submission named in time, for the sweep (core/assignments/unnamed-uploads.ts). */
export const dynamoUnnamedUploads = (): UnnamedUploadRepository => ({
  async due(now, limit, cursor) {
    const page = await dueIndexPage(UNNAMED_DUE, now, limit, cursor ? { cursor, pkPrefix: 'SUBMITTER#' } : undefined);
    return { items: page.items.map((item) => fileItem.parse(item)), nextCursor: page.nextCursor };
  },

  claim: (file) =>
    writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: submissionKeys.file(file.courseId, file.lessonId, file.learnerId, file.id),
          UpdateExpression: 'SET removing = if_not_exists(removing, :yes)',
          // Still in the index: no submission has named it (a run killed after its claim finds it claimed: fine).
          ConditionExpression: 'attribute_exists(gsi3pk)',
          ExpressionAttributeValues: { ':yes': true },
        }),
      ),
    ),

  async remove(file) {
    await writeIf(() =>
      documentClient().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: submissionKeys.file(file.courseId, file.lessonId, file.learnerId, file.id),
          ConditionExpression: 'attribute_exists(removing)',
        }),
      ),
    );
  },
});

/** A deleted course's submissions and its learners' own partitions, for the course-changed run (core/assignments/course-deleted.ts). */
export const dynamoCourseSubmissionRemoval = (): CourseSubmissionRemoval => ({
  async page(courseId, limit) {
    const found = await indexPage({
      index: 'gsi2',
      partition: submissionKeys.ofCourse({ courseId, learnerId: '', submittedAt: '', id: '' }).gsi2pk,
      cursor: undefined,
      limit,
      cursorKey: { fixed: { sk: 'SUBMISSION' }, sortPrefix: { name: 'pk', prefix: 'SUBMISSION#' } },
      oldestFirst: true,
    });
    return found.items.map(toSubmission);
  },

  async learnerUploads(courseId, learnerId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :file)',
      ExpressionAttributeValues: { ':pk': submissionKeys.submitter(courseId, learnerId), ':file': 'FILE#' },
    });
    return items.map((item) => fileItem.parse(item));
  },

  async removeLearnerRecords(courseId, learnerId) {
    const keys = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': submissionKeys.submitter(courseId, learnerId) },
      ProjectionExpression: 'pk, sk',
    });
    await batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
  },

  async remove(submissionId) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: submissionKeys.submission(submissionId) }));
  },
});

/**
 * Migration (issue 37, bin/backfill.ts): submissions written before their gsi2 get it, so a deleted course's run and
 * the account deletion find them, the superseded ones too (no pointer names them). Idempotent: a second run finds none without it.
 */
export const backfillCourseSubmissionsIndex = (): Promise<number> =>
  backfillIndexKeys({
    type: 'Submission',
    index: 'gsi2',
    projection: 'id, courseId, learnerId, submittedAt',
    keysOf: (item) => {
      const parsed = z.object({ id: z.string(), courseId: z.string(), learnerId: z.string(), submittedAt: z.string() }).safeParse(item);
      if (!parsed.success) return undefined;
      const { gsi2pk, gsi2sk } = submissionKeys.ofCourse(parsed.data);
      return { key: submissionKeys.submission(parsed.data.id), pk: gsi2pk, sk: gsi2sk };
    },
  });

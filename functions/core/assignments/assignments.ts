import { DOWNLOAD_URL_TTL_SECONDS, type FileUrlResponse } from '#contracts/files.ts';
import { SUBMISSION_UPLOAD_TTL_SECONDS, SUBMISSIONS_PAGE, type CreateSubmissionBody, type StartSubmissionFileBody, type SubmissionFileUpload, type GradeSubmissionBody, type MySubmissionAnswer, type Submission, type SubmissionCreated, type SubmissionList, type SubmissionStatus } from '#contracts/submissions.ts';
import { gradedEmail } from '#core/assignments/emails.ts';
import type { StoredSubmission, StoredSubmissionFile, SubmissionFileStore, SubmissionRepository } from '#core/assignments/ports.ts';
import { fileRefusal, gradeOutcome, mySubmissionView, safeDownloadType, submissionFileKey, submissionView, submitRefusal, unnamedUploadLifetime } from '#core/assignments/rules.ts';
import type { AccessSources } from '#core/access/access.ts';
import { COURSE_NOT_FOUND } from '#core/courses/courses.ts';
import { mustBeOpen } from '#core/enrollments/drip.ts';
import { lessonDone, type LearnerDeps, reachableOutline } from '#core/enrollments/learner-courses.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { attachmentDisposition } from '#core/files/files.ts';
import type { Clock, CourseRepository, Ids, MailSchool, QueuedMail, UserRepository } from '#core/ports.ts';

/**
 * Assignments (issue 35 point 2; docs/api.md "Assignments"): a learner hands in work on an assignment lesson, the
 * course's creator lists the submissions of a course by status and grades them; the learner is emailed (queued in the
 * grade's own write), and a pass completes the lesson through the same path as any lesson's completion
 * (core/enrollments/learner-courses.ts lessonDone), so progress, the course's completion and its certificate follow.
 * A learner reaches a lesson as the player does (enrolled or licensed, the course published, the lesson released:
 * else 404, or 403 LESSON_LOCKED); a creator reaches only their own courses' submissions (anyone else: 404).
 */

export const LESSON_NOT_FOUND = 'Lesson not found.';
export const SUBMISSION_NOT_FOUND = 'Submission not found.';
export const NOT_AN_ASSIGNMENT = 'This lesson is not an assignment.';
export const TEXT_ONLY = 'This assignment takes a written answer only.';
export const FILE_NOT_FOUND = 'File not found.';

export interface AssignmentDeps extends AccessSources {
  submissions: SubmissionRepository;
  courses: Pick<CourseRepository, 'getOutline' | 'getLesson'>;
  users: Pick<UserRepository, 'getUser'>;
  ids: Ids;
  clock: Clock;
}

/** Handing in with files reads the bucket (HeadObject) and the learner's uploads; uploads and downloads presign. */
export interface SubmissionFileDeps extends AssignmentDeps {
  files: SubmissionFileStore;
}

export interface GradeDeps extends AssignmentDeps {
  enrollments: LearnerDeps['enrollments'];
  /** The addresses that refused the platform's mail (never mailed). */
  suppressed: (emails: readonly string[]) => Promise<Set<string>>;
  /** The creator's school in force (branded emails), or undefined. */
  school: (creatorId: string) => Promise<MailSchool | undefined>;
  appOrigin: string;
}

/** The assignment lesson as its learner reaches it (the player's rules), with the course's outline. */
const learnerAssignment = async (deps: Pick<AssignmentDeps, 'courses' | 'clock' | keyof AccessSources>, learnerId: string, courseId: string, lessonId: string) => {
  const [{ course, enrollment }, lesson] = await Promise.all([reachableOutline(deps, learnerId, courseId), deps.courses.getLesson(courseId, lessonId)]);
  const listed = course.lessons.find((l) => l.id === lessonId);
  if (!listed || !lesson) throw new NotFoundError(LESSON_NOT_FOUND);
  mustBeOpen(listed, enrollment.enrolledAt, deps.clock.now());
  if (lesson.kind !== 'assignment' || !lesson.assignment) throw new ConflictError(NOT_AN_ASSIGNMENT);
  return { course, lesson: { ...lesson, assignment: lesson.assignment } };
};

/** A latest submission moved between our read and our write: read again, this many times. */
const SUBMIT_ATTEMPTS = 3;

/**
 * POST /api/learner/courses/{courseId}/lessons/{lessonId}/submissions: 201 {id, status: 'submitted'}. The first
 * submission, or a new one after the creator asked for a revision (it takes the old one's place); 409 while the
 * latest waits for review or has passed.
 */
export const submitAssignment = async (
  deps: AssignmentDeps & { files: Pick<SubmissionFileStore, 'head'> },
  input: { learnerId: string; courseId: string; lessonId: string; body: CreateSubmissionBody },
): Promise<SubmissionCreated> => {
  const { course, lesson } = await learnerAssignment(deps, input.learnerId, input.courseId, input.lessonId);
  const fileIds = [...new Set(input.body.fileIds ?? [])];
  if (fileIds.length > 0 && !lesson.assignment.acceptsFiles) throw new ValidationError(TEXT_ONLY, [{ path: ['fileIds'], message: TEXT_ONLY }]);
  const text = input.body.text ?? '';
  if (text === '' && fileIds.length === 0) throw new ValidationError('Write your answer before you submit it.', [{ path: ['text'], message: 'Write your answer before you submit it.' }]);
  const learner = await deps.users.getUser(input.learnerId);
  for (let attempt = 1; attempt <= SUBMIT_ATTEMPTS; attempt++) {
    // Read on each attempt: an upload the sweep started removing meanwhile fails the write, then is refused here (400).
    const files = await handedInFiles(deps, { courseId: course.id, lessonId: lesson.id, learnerId: input.learnerId }, fileIds);
    const previous = await deps.submissions.latest(course.id, lesson.id, input.learnerId);
    const refusal = submitRefusal(previous);
    if (refusal) throw new ConflictError(refusal);
    const submission: StoredSubmission = {
      id: deps.ids.newId(),
      courseId: course.id,
      lessonId: lesson.id,
      lessonTitle: lesson.title,
      creatorId: course.creatorId,
      learnerId: input.learnerId,
      learnerEmail: learner?.email ?? '',
      text,
      fileIds,
      files: files.map(({ id, name, contentType, size }) => ({ id, name, contentType, size })),
      status: 'submitted',
      submittedAt: deps.clock.now().toISOString(),
      feedback: null,
      gradedAt: null,
      supersededBy: null,
    };
    if (await deps.submissions.submit({ submission, previous })) return { id: submission.id, status: 'submitted' };
  }
  throw new ConflictError('Your submission changed meanwhile: reload the lesson and try again.');
};

/**
 * The files a submission names: each the learner's own upload of this lesson (read by key in their own partition, so
 * another learner's id is simply not found), each fully in the bucket as declared (HeadObject); else 400, nothing kept.
 */
const handedInFiles = async (
  deps: { submissions: Pick<SubmissionRepository, 'getFiles'>; files: Pick<SubmissionFileStore, 'head'> },
  where: { courseId: string; lessonId: string; learnerId: string },
  fileIds: readonly string[],
): Promise<StoredSubmissionFile[]> => {
  if (fileIds.length === 0) return [];
  const found = await deps.submissions.getFiles(where.courseId, where.lessonId, where.learnerId, fileIds);
  const stored = new Map(await Promise.all(found.map(async (f) => [f.id, await deps.files.head(submissionFileKey(f))] as const)));
  const refusal = fileRefusal(fileIds, found, stored);
  if (refusal) throw new ValidationError(refusal, [{ path: ['fileIds'], message: refusal }]);
  const byId = new Map(found.map((f) => [f.id, f]));
  return fileIds.map((id) => byId.get(id)!);
};

/**
 * POST /api/learner/courses/{courseId}/lessons/{lessonId}/submission-files: 201 with the file and a presigned PUT of
 * exactly its declared type and size, under the learner's own prefix. Only on an assignment that accepts files (400);
 * the learner reaches the lesson as for handing in (else 404 or 403 LESSON_LOCKED). The file is theirs to name in a
 * submission once its bytes are in the bucket, for a day after the link expires: an upload no submission named by then
 * is removed, bytes and item (core/assignments/unnamed-uploads.ts).
 */
export const startSubmissionFile = async (
  deps: Pick<SubmissionFileDeps, 'courses' | 'clock' | 'ids' | 'submissions' | keyof AccessSources> & { files: Pick<SubmissionFileStore, 'uploadUrl'> },
  input: { learnerId: string; courseId: string; lessonId: string; body: StartSubmissionFileBody },
): Promise<SubmissionFileUpload> => {
  const { course, lesson } = await learnerAssignment(deps, input.learnerId, input.courseId, input.lessonId);
  if (!lesson.assignment.acceptsFiles) throw new ValidationError(TEXT_ONLY, [{ path: ['contentType'], message: TEXT_ONLY }]);
  const now = deps.clock.now();
  const { name, contentType, size } = input.body;
  const file: StoredSubmissionFile = { id: deps.ids.newId(), name, contentType, size, courseId: course.id, lessonId: lesson.id, learnerId: input.learnerId, createdAt: now.toISOString() };
  await deps.submissions.putFile(file, unnamedUploadLifetime(file.createdAt));
  const url = await deps.files.uploadUrl(submissionFileKey(file), { contentType, contentLength: size, ttlSeconds: SUBMISSION_UPLOAD_TTL_SECONDS });
  return { file: { id: file.id, name, contentType, size }, url, expiresAt: new Date(now.getTime() + SUBMISSION_UPLOAD_TTL_SECONDS * 1000).toISOString() };
};

/**
 * GET /api/submissions/{submissionId}/files/{fileId}/url: a short-lived download of a handed-in file, for the course's
 * creator and for the learner who handed it in; anyone else, and a file the submission does not name, 404. Always a
 * download (Content-Disposition attachment under the file's name) with a safe Content-Type, never shown inline.
 */
export const submittedFileUrl = async (
  deps: { submissions: Pick<SubmissionRepository, 'get'>; files: Pick<SubmissionFileStore, 'downloadUrl'>; clock: Clock },
  input: { userId: string; submissionId: string; fileId: string },
): Promise<FileUrlResponse> => {
  const submission = await deps.submissions.get(input.submissionId);
  if (!submission || (submission.creatorId !== input.userId && submission.learnerId !== input.userId)) throw new NotFoundError(SUBMISSION_NOT_FOUND);
  const file = submission.files.find((f) => f.id === input.fileId);
  if (!file) throw new NotFoundError(FILE_NOT_FOUND);
  const key = submissionFileKey({ courseId: submission.courseId, lessonId: submission.lessonId, learnerId: submission.learnerId, id: file.id });
  const url = await deps.files.downloadUrl(key, { disposition: attachmentDisposition(file.name), contentType: safeDownloadType(file.contentType), ttlSeconds: DOWNLOAD_URL_TTL_SECONDS });
  return { url, expiresAt: new Date(deps.clock.now().getTime() + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString() };
};

/** GET /api/learner/courses/{courseId}/lessons/{lessonId}/submissions: the learner's latest (null before any). */
export const mySubmission = async (deps: AssignmentDeps, input: { learnerId: string; courseId: string; lessonId: string }): Promise<MySubmissionAnswer> => {
  const { course, lesson } = await learnerAssignment(deps, input.learnerId, input.courseId, input.lessonId);
  const latest = await deps.submissions.latest(course.id, lesson.id, input.learnerId);
  return { submission: latest ? mySubmissionView(latest) : null };
};

/** GET /api/courses/{courseId}/submissions?status=&cursor=: the creator's own course only (else 404); absent status: those waiting. */
export const listSubmissions = async (
  deps: Pick<AssignmentDeps, 'submissions' | 'courses'>,
  input: { creatorId: string; courseId: string; status?: SubmissionStatus | undefined; cursor?: string | undefined },
): Promise<SubmissionList> => {
  const course = await deps.courses.getOutline(input.courseId);
  if (!course || course.creatorId !== input.creatorId) throw new NotFoundError(COURSE_NOT_FOUND);
  const page = await deps.submissions.pageByCourse(input.courseId, input.status ?? 'submitted', { cursor: input.cursor, limit: SUBMISSIONS_PAGE });
  return { items: page.items.map(submissionView), nextCursor: page.nextCursor };
};

/**
 * POST /api/submissions/{submissionId}/grade: the course's creator (anyone else: 404) grades the latest, waiting
 * submission; the learner's email is queued in the same write (unless their address refuses mail). A pass completes the
 * lesson for the learner (idempotent; a learner who lost access meanwhile keeps the grade, with nothing to complete);
 * passing a passed submission again only makes sure of that completion (a retry), without a second email.
 */
export const gradeSubmission = async (deps: GradeDeps, input: { creatorId: string; submissionId: string; body: GradeSubmissionBody }): Promise<Submission> => {
  const submission = await deps.submissions.get(input.submissionId);
  if (!submission || submission.creatorId !== input.creatorId) throw new NotFoundError(SUBMISSION_NOT_FOUND);
  const course = await deps.courses.getOutline(submission.courseId);
  if (!course || course.creatorId !== input.creatorId) throw new NotFoundError(SUBMISSION_NOT_FOUND);
  const { status, feedback } = input.body;
  const outcome = gradeOutcome(submission, status);
  if (typeof outcome === 'object') throw new ConflictError(outcome.refused);
  let graded = submission;
  if (outcome === 'grade') {
    const gradedAt = deps.clock.now().toISOString();
    const learner = await deps.users.getUser(submission.learnerId);
    const to = learner?.email.toLowerCase();
    const refused = to ? await deps.suppressed([to]) : new Set<string>();
    const lessonTitle = course.lessons.find((l) => l.id === submission.lessonId)?.title ?? submission.lessonTitle;
    const mail: QueuedMail | undefined =
      to && !refused.has(to)
        ? {
            ...gradedEmail({ to, status, feedback, courseTitle: course.title, lessonTitle, courseId: course.id, lessonId: submission.lessonId, appOrigin: deps.appOrigin, school: await deps.school(course.creatorId) }),
            id: `submission-graded:${submission.id}`,
            queuedAt: gradedAt,
            dueAt: gradedAt,
            tries: 0,
          }
        : undefined;
    if (!(await deps.submissions.grade({ submission, status, feedback, gradedAt, mail }))) throw new ConflictError('The submission changed meanwhile: reload and try again.');
    graded = { ...submission, status, feedback, gradedAt };
  }
  if (status === 'passed') await completeFor(deps, graded);
  return submissionView(graded);
};

/** The passed assignment's lesson completed for its learner, as any lesson is; nothing when they cannot reach it any more. */
const completeFor = async (deps: GradeDeps, submission: StoredSubmission): Promise<void> => {
  try {
    await lessonDone(deps, { learnerId: submission.learnerId, courseId: submission.courseId, lessonId: submission.lessonId }, { quizPassed: false, assignmentPassed: true });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
};

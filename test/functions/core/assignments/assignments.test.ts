import { describe, expect, it } from 'vitest';
import { createLessonBody } from '#contracts/courses.ts';
import { createSubmissionBody, gradeSubmissionBody, startSubmissionFileBody } from '#contracts/submissions.ts';
import { gradeSubmission, listSubmissions, mySubmission, NOT_AN_ASSIGNMENT, startSubmissionFile, submitAssignment, submittedFileUrl, TEXT_ONLY, type GradeDeps, type SubmissionFileDeps } from '#core/assignments/assignments.ts';
import { gradedEmail } from '#core/assignments/emails.ts';
import type { StoredSubmission, StoredSubmissionFile, SubmissionFileStore, SubmissionRepository, UnnamedUploadRepository } from '#core/assignments/ports.ts';
import { ALREADY_PASSED, fileRefusal, NOT_UPLOADED, NOT_YOUR_FILE, safeDownloadType, submissionFileKey, SUPERSEDED, unnamedUploadLifetime, WAITING_FOR_REVIEW } from '#core/assignments/rules.ts';
import { sweepUnnamedUploads } from '#core/assignments/unnamed-uploads.ts';
import { ASSIGNMENT_COMPLETES_ITSELF, completeLesson } from '#core/enrollments/learner-courses.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import type { QueuedMail, StoredCourse } from '#core/ports.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { courseLesson, courseRecord } from '#test/functions/fakes/courses.ts';
import { memoryCourseReader, memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';

/**
 * Assignments (issue 35 point 2) against an in-memory table that keeps the repository's promises: who may hand in
 * and grade (404 for anyone else), one latest submission per learner and lesson, the grade's email, and a pass
 * completing the lesson through the same path as any lesson.
 */
const ASSIGNMENT = { instructions: 'Write a **short** essay.', html: '<p>Write a <strong>short</strong> essay.</p>', acceptsFiles: false };

const course = (acceptsFiles = false): StoredCourse => ({
  ...courseRecord({ id: 'c1', creatorId: 'u1', title: 'Basics', description: '', lessonCount: 2, enrolledCount: 1, priceAmount: 0, seatPriceAmount: 0 }),
  lessons: [courseLesson('l1', 0), courseLesson('a1', 1, null, { kind: 'assignment', title: 'Essay', body: null, assignment: { ...ASSIGNMENT, acceptsFiles } })],
});

/**
 * The table as far as submissions go: submissions, the learners' latest pointers and uploads (with their due time until
 * named, and the sweep's mark), the pending counters, the mail queue.
 */
const memorySubmissions = () => {
  const items = new Map<string, StoredSubmission>();
  const latest = new Map<string, string>();
  const uploads = new Map<string, StoredSubmissionFile & { dueAt?: string; expiresAt?: number; removing?: true }>();
  const pending = new Map<string, number>();
  const queued: QueuedMail[] = [];
  const move = (s: Pick<StoredSubmission, 'courseId' | 'learnerId'>, by: number) => pending.set(`${s.courseId}#${s.learnerId}`, (pending.get(`${s.courseId}#${s.learnerId}`) ?? 0) + by);
  const key = (s: Pick<StoredSubmission, 'courseId' | 'lessonId' | 'learnerId'>) => `${s.courseId}|${s.lessonId}|${s.learnerId}`;
  const repo: SubmissionRepository = {
    get: async (id) => (items.has(id) ? { ...items.get(id)! } : undefined),
    latest: async (courseId, lessonId, learnerId) => {
      const id = latest.get(key({ courseId, lessonId, learnerId }));
      return id ? { ...items.get(id)! } : undefined;
    },
    submit: async ({ submission, previous }) => {
      if (latest.get(key(submission)) !== previous?.id) return false;
      const named = submission.fileIds.map((id) => uploads.get(`${key(submission)}|${id}`));
      if (named.some((u) => !u || u.removing)) return false;
      for (const u of named) {
        delete u!.dueAt;
        delete u!.expiresAt;
      }
      if (previous) items.set(previous.id, { ...items.get(previous.id)!, supersededBy: submission.id });
      items.set(submission.id, submission);
      latest.set(key(submission), submission.id);
      move(submission, 1);
      return true;
    },
    pageByCourse: async (courseId, status, page) => {
      const all = [...items.values()].filter((s) => s.courseId === courseId && s.status === status && s.supersededBy === null).sort((a, b) => a.submittedAt.localeCompare(b.submittedAt));
      return { items: all.slice(0, page.limit), nextCursor: null };
    },
    grade: async ({ submission, status, feedback, gradedAt, mail }) => {
      const now = items.get(submission.id);
      if (!now || now.status !== 'submitted' || now.supersededBy !== null) return false;
      items.set(submission.id, { ...now, status, feedback, gradedAt });
      move(submission, -1);
      if (mail) queued.push(mail);
      return true;
    },
    putFile: async (file, unnamed) => void uploads.set(`${key(file)}|${file.id}`, { ...file, ...unnamed }),
    getFiles: async (courseId, lessonId, learnerId, ids) =>
      ids.flatMap((id) => {
        const u = uploads.get(`${key({ courseId, lessonId, learnerId })}|${id}`);
        return u && !u.removing ? [u] : [];
      }),
    pendingCounts: async (enrolments) => new Map(enrolments.flatMap((e) => (pending.has(`${e.courseId}#${e.learnerId}`) ? [[`${e.courseId}#${e.learnerId}`, pending.get(`${e.courseId}#${e.learnerId}`)!] as const] : []))),
  };
  const unnamed: UnnamedUploadRepository = {
    due: async (now) => ({ items: [...uploads.values()].filter((u) => u.dueAt !== undefined && u.dueAt <= now).sort((a, b) => a.dueAt!.localeCompare(b.dueAt!)), nextCursor: null }),
    claim: async (file) => {
      const u = uploads.get(`${key(file)}|${file.id}`);
      if (!u || u.dueAt === undefined) return false;
      u.removing = true;
      return true;
    },
    remove: async (file) => {
      if (uploads.get(`${key(file)}|${file.id}`)?.removing) uploads.delete(`${key(file)}|${file.id}`);
    },
  };
  return { repo, queued, items, uploads, unnamed };
};

/** The bucket: what was PUT to which key (the test does the browser's PUT), links that show what they were signed with. */
const memoryBucket = () => {
  const objects = new Map<string, { size: number; contentType: string | undefined }>();
  const store: SubmissionFileStore = {
    uploadUrl: async (key, { contentType, contentLength }) => `https://files.test/${key}?put&type=${encodeURIComponent(contentType)}&length=${contentLength}`,
    head: async (key) => objects.get(key),
    downloadUrl: async (key, { disposition, contentType }) => `https://files.test/${key}?disposition=${encodeURIComponent(disposition)}&type=${encodeURIComponent(contentType)}`,
    deleteObjects: async (keys) => keys.forEach((k) => objects.delete(k)),
  };
  return { store, objects };
};

const setup = async (options: { acceptsFiles?: boolean } = {}) => {
  const submissions = memorySubmissions();
  const bucket = memoryBucket();
  const clock = testClock();
  const deps: GradeDeps & SubmissionFileDeps = {
    submissions: submissions.repo,
    files: bucket.store,
    courses: memoryCourseReader([course(options.acceptsFiles)]),
    enrollments: memoryEnrollments(),
    licenses: memoryLicenses(),
    users: { getUser: async (id) => ({ id, email: `${id}@example.com` }) as Awaited<ReturnType<GradeDeps['users']['getUser']>> },
    ids: sequentialIds('s'),
    clock,
    suppressed: async (emails) => new Set(emails.filter((e) => e.startsWith('refuses'))),
    school: async () => undefined,
    appOrigin: 'https://app.example.com',
  };
  for (const learnerId of ['ann', 'refuses']) {
    await deps.enrollments.enroll({ courseId: 'c1', learnerId, creatorId: 'u1', learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: NOW, courseTitle: 'Basics', enrolledAt: NOW });
  }
  const submit = (text: string, learnerId = 'ann', lessonId = 'a1') => submitAssignment(deps, { learnerId, courseId: 'c1', lessonId, body: { text } });
  const grade = (submissionId: string, status: 'passed' | 'needs_revision', feedback = '', creatorId = 'u1') => gradeSubmission(deps, { creatorId, submissionId, body: { status, feedback } });
  return { deps, submit, grade, submissions, bucket, clock };
};

describe('the contracts', () => {
  it('an assignment lesson takes an assignment and no body; a submission has an answer; a revision says what to change', () => {
    expect(createLessonBody.safeParse({ title: 'Essay', kind: 'assignment', assignment: { instructions: 'Write.' } }).success).toBe(true);
    expect(createLessonBody.safeParse({ title: 'Essay', kind: 'assignment' }).success).toBe(false);
    expect(createLessonBody.safeParse({ title: 'Essay', kind: 'assignment', body: '<p>x</p>', assignment: { instructions: 'Write.' } }).success).toBe(false);
    expect(createLessonBody.safeParse({ title: 'Read', kind: 'text', body: '<p>x</p>', assignment: { instructions: 'Write.' } }).success).toBe(false);
    expect(createSubmissionBody.safeParse({}).success).toBe(false);
    expect(createSubmissionBody.safeParse({ text: '   ' }).success).toBe(false);
    expect(createSubmissionBody.safeParse({ text: 'My essay' }).success).toBe(true);
    expect(gradeSubmissionBody.safeParse({ status: 'needs_revision', feedback: ' ' }).success).toBe(false);
    expect(gradeSubmissionBody.safeParse({ status: 'passed' }).success).toBe(true);
  });
});

describe('handing in and grading', () => {
  it('a learner hands in, is asked for a revision, hands in again and passes: the lesson completes, each grade is emailed', async () => {
    const { deps, submit, grade, submissions } = await setup();
    await expect(completeLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1' })).rejects.toThrow(ASSIGNMENT_COMPLETES_ITSELF);

    const first = await submit('First draft');
    expect(first).toEqual({ id: expect.any(String), status: 'submitted' });
    await expect(submit('Impatient')).rejects.toThrow(WAITING_FOR_REVIEW);
    expect((await listSubmissions(deps, { creatorId: 'u1', courseId: 'c1' })).items.map((s) => [s.text, s.learnerEmail, s.lessonTitle])).toEqual([['First draft', 'ann@example.com', 'Essay']]);

    const revised = await grade(first.id, 'needs_revision', 'Add a conclusion.');
    expect(revised).toMatchObject({ status: 'needs_revision', feedback: 'Add a conclusion.' });
    expect((await mySubmission(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1' })).submission).toMatchObject({ status: 'needs_revision', feedback: 'Add a conclusion.' });
    expect(submissions.queued.map((m) => [m.to, m.subject])).toEqual([['ann@example.com', 'Your assignment needs a revision']]);
    expect(submissions.queued[0]!.text).toContain('Add a conclusion.');

    const second = await submit('Second draft, with a conclusion');
    // The revised one left the queue: the latest counts.
    expect((await listSubmissions(deps, { creatorId: 'u1', courseId: 'c1', status: 'needs_revision' })).items).toEqual([]);
    await expect(grade(first.id, 'passed')).rejects.toThrow(SUPERSEDED);
    expect(await grade(second.id, 'passed', 'Well done.')).toMatchObject({ status: 'passed' });

    const enrolment = await deps.enrollments.get('c1', 'ann');
    expect(enrolment?.completedLessonIds).toEqual(['a1']);
    expect(enrolment?.progress).toBe(50);
    expect(submissions.queued.map((m) => m.subject)).toEqual(['Your assignment needs a revision', 'Your assignment has passed']);
    await expect(submit('More')).rejects.toThrow(ALREADY_PASSED);

    // Passing again (a retry after a lost answer) sends nothing new; a revision after a pass is refused.
    expect(await grade(second.id, 'passed')).toMatchObject({ status: 'passed' });
    expect(submissions.queued).toHaveLength(2);
    await expect(grade(second.id, 'needs_revision', 'Changed my mind')).rejects.toThrow(ConflictError);
  });

  it('another creator cannot see or grade the course’s submissions (404); a stranger cannot hand in (404)', async () => {
    const { deps, submit, grade } = await setup();
    const { id } = await submit('Mine');
    await expect(grade(id, 'passed', '', 'u2')).rejects.toThrow(NotFoundError);
    await expect(listSubmissions(deps, { creatorId: 'u2', courseId: 'c1' })).rejects.toThrow(NotFoundError);
    await expect(submit('Let me in', 'stranger')).rejects.toThrow(NotFoundError);
    await expect(mySubmission(deps, { learnerId: 'stranger', courseId: 'c1', lessonId: 'a1' })).rejects.toThrow(NotFoundError);
  });

  it('refuses a lesson that is not an assignment (409), and files on an assignment that takes text only (400)', async () => {
    const { deps, submit } = await setup();
    await expect(submit('Text', 'ann', 'l1')).rejects.toThrow(NOT_AN_ASSIGNMENT);
    const files = submitAssignment(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: { fileIds: ['f1'] } });
    await expect(files).rejects.toThrow(TEXT_ONLY);
    const upload = startSubmissionFile(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: { name: 'essay.pdf', contentType: 'application/pdf', size: 10 } });
    await expect(upload).rejects.toThrow(TEXT_ONLY);
  });

  it('does not email a learner whose address refuses mail, and still grades', async () => {
    const { submit, grade, submissions } = await setup();
    const { id } = await submit('Work', 'refuses');
    expect(await grade(id, 'needs_revision', 'More')).toMatchObject({ status: 'needs_revision' });
    expect(submissions.queued).toEqual([]);
  });
});

describe('handing in files', () => {
  const pdf = { name: 'My essay.pdf', contentType: 'application/pdf', size: 1234 };

  it('a learner uploads under their own prefix, hands the file in; the creator and the learner download it as an attachment, nobody else', async () => {
    const { deps, submissions, bucket } = await setup({ acceptsFiles: true });
    const upload = await startSubmissionFile(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: pdf });
    const key = submissionFileKey({ courseId: 'c1', lessonId: 'a1', learnerId: 'ann', id: upload.file.id });
    expect(key).toBe(`courses/c1/a1/submissions/ann/${upload.file.id}`);
    expect(upload.url).toContain(key);
    expect(upload.url).toContain('type=application%2Fpdf&length=1234');
    expect(upload.file).toEqual({ id: upload.file.id, ...pdf });

    // Named before its bytes arrived: not yet.
    await expect(submitAssignment(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: { fileIds: [upload.file.id] } })).rejects.toThrow(NOT_UPLOADED);
    bucket.objects.set(key, { size: 1234, contentType: 'application/pdf' });
    const { id } = await submitAssignment(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: { fileIds: [upload.file.id, upload.file.id] } });
    expect(submissions.items.get(id)).toMatchObject({ text: '', fileIds: [upload.file.id], files: [{ id: upload.file.id, ...pdf }] });
    expect((await mySubmission(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1' })).submission?.files).toEqual([{ id: upload.file.id, ...pdf }]);
    expect((await listSubmissions(deps, { creatorId: 'u1', courseId: 'c1' })).items[0]?.files).toEqual([{ id: upload.file.id, ...pdf }]);

    const creator = await submittedFileUrl(deps, { userId: 'u1', submissionId: id, fileId: upload.file.id });
    expect(decodeURIComponent(creator.url)).toContain("disposition=attachment; filename*=UTF-8''My%20essay.pdf");
    expect(decodeURIComponent(creator.url)).toContain('type=application/pdf');
    expect((await submittedFileUrl(deps, { userId: 'ann', submissionId: id, fileId: upload.file.id })).url).toContain(key);
    await expect(submittedFileUrl(deps, { userId: 'refuses', submissionId: id, fileId: upload.file.id })).rejects.toThrow(NotFoundError);
    await expect(submittedFileUrl(deps, { userId: 'u2', submissionId: id, fileId: upload.file.id })).rejects.toThrow(NotFoundError);
    await expect(submittedFileUrl(deps, { userId: 'u1', submissionId: id, fileId: 'other' })).rejects.toThrow(NotFoundError);
  });

  it('another learner cannot hand in someone else’s file, even knowing its id (400)', async () => {
    const { deps, bucket } = await setup({ acceptsFiles: true });
    const upload = await startSubmissionFile(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: pdf });
    bucket.objects.set(submissionFileKey({ courseId: 'c1', lessonId: 'a1', learnerId: 'ann', id: upload.file.id }), { size: 1234, contentType: 'application/pdf' });
    const theft = submitAssignment(deps, { learnerId: 'refuses', courseId: 'c1', lessonId: 'a1', body: { text: 'Mine now', fileIds: [upload.file.id] } });
    await expect(theft).rejects.toThrow(NOT_YOUR_FILE);
  });

  it('the rules: a file must be the learner’s own and in the bucket as declared; downloads get a safe type', () => {
    const mine = [{ id: 'f1', size: 10, contentType: 'image/png' }];
    expect(fileRefusal(['f1'], mine, new Map([['f1', { size: 10, contentType: 'image/png' }]]))).toBeUndefined();
    expect(fileRefusal(['f1', 'f2'], mine, new Map([['f1', { size: 10, contentType: 'image/png' }]]))).toBe(NOT_YOUR_FILE);
    expect(fileRefusal(['f1'], mine, new Map([['f1', undefined]]))).toBe(NOT_UPLOADED);
    expect(fileRefusal(['f1'], mine, new Map([['f1', { size: 11, contentType: 'image/png' }]]))).toBe(NOT_UPLOADED);
    expect(fileRefusal(['f1'], mine, new Map([['f1', { size: 10, contentType: 'text/html' }]]))).toBe(NOT_UPLOADED);
    expect(safeDownloadType('application/pdf')).toBe('application/pdf');
    expect(safeDownloadType('IMAGE/PNG; charset=x')).toBe('image/png');
    for (const risky of ['text/html', 'image/svg+xml', 'application/javascript', '']) expect(safeDownloadType(risky)).toBe('application/octet-stream');
    expect(startSubmissionFileBody.safeParse(pdf).success).toBe(true);
    expect(startSubmissionFileBody.safeParse({ ...pdf, contentType: 'text/html' }).success).toBe(false);
    expect(startSubmissionFileBody.safeParse({ ...pdf, size: 50 * 1024 * 1024 + 1 }).success).toBe(false);
  });
});

describe('uploads nobody handed in', () => {
  const pdf = { name: 'Draft.pdf', contentType: 'application/pdf', size: 1234 };
  const HOUR = 60 * 60 * 1000;

  const uploaded = async (world: Awaited<ReturnType<typeof setup>>) => {
    const upload = await startSubmissionFile(world.deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: pdf });
    const key = submissionFileKey({ courseId: 'c1', lessonId: 'a1', learnerId: 'ann', id: upload.file.id });
    world.bucket.objects.set(key, { size: 1234, contentType: 'application/pdf' });
    return { id: upload.file.id, key };
  };
  const sweep = (world: Awaited<ReturnType<typeof setup>>) => sweepUnnamedUploads({ uploads: world.submissions.unnamed, files: world.bucket.store, clock: world.deps.clock }, undefined, () => false);

  it('the rule: due a day after the upload link expires; the table’s own TTL two days after that', () => {
    expect(unnamedUploadLifetime('2026-11-01T12:00:00.000Z')).toEqual({ dueAt: '2026-11-02T12:15:00.000Z', expiresAt: Date.parse('2026-11-04T12:15:00.000Z') / 1000 });
  });

  it('an upload no submission named is removed, bytes and record, once due; one handed in stays', async () => {
    const world = await setup({ acceptsFiles: true });
    const kept = await uploaded(world);
    const orphan = await uploaded(world);
    await submitAssignment(world.deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: { fileIds: [kept.id] } });

    world.clock.advance(24 * HOUR);
    expect((await sweep(world)).counts).toEqual({ uploadsRemoved: 0, uploadsNamed: 0 });
    expect(world.bucket.objects.has(orphan.key)).toBe(true);

    world.clock.advance(HOUR);
    expect((await sweep(world)).counts).toEqual({ uploadsRemoved: 1, uploadsNamed: 0 });
    expect(world.bucket.objects.has(orphan.key)).toBe(false);
    expect(world.submissions.uploads.size).toBe(1);
    expect(world.bucket.objects.has(kept.key)).toBe(true);
    expect(await world.submissions.repo.getFiles('c1', 'a1', 'ann', [kept.id])).toHaveLength(1);
  });

  it('a run killed after its claim finishes the removal next time; an upload being removed can no longer be handed in (400)', async () => {
    const world = await setup({ acceptsFiles: true });
    const orphan = await uploaded(world);
    world.clock.advance(25 * HOUR);
    const failing = { ...world.bucket.store, deleteObjects: async () => Promise.reject(new Error('S3 is down')) };
    await expect(sweepUnnamedUploads({ uploads: world.submissions.unnamed, files: failing, clock: world.clock }, undefined, () => false)).rejects.toThrow('S3 is down');
    // Claimed, not yet gone: the learner cannot name it now (it would be handed in without its bytes).
    await expect(submitAssignment(world.deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'a1', body: { fileIds: [orphan.id] } })).rejects.toThrow(NOT_YOUR_FILE);
    expect((await sweep(world)).counts).toEqual({ uploadsRemoved: 1, uploadsNamed: 0 });
    expect(world.bucket.objects.has(orphan.key)).toBe(false);
    expect(world.submissions.uploads.size).toBe(0);
  });
});

describe('the grade email', () => {
  it('quotes the feedback as text, never markup, and links to the lesson', () => {
    const mail = gradedEmail({ to: 'a@example.com', status: 'needs_revision', feedback: '<script>alert(1)</script>\nLine two', courseTitle: 'Basics', lessonTitle: 'Essay', courseId: 'c1', lessonId: 'a1', appOrigin: 'https://app.example.com', school: undefined });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.text).toContain('Line two');
    expect(mail.text).toContain('https://app.example.com/dashboard/learner/courses/c1?lesson=a1');
  });
});

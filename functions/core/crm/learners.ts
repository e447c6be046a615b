import {
  type CrmLearner,
  type CrmLearnerDetails,
  type CrmLearnerList,
  type SavedNotes,
  STALLED_AFTER_DAYS,
} from '#contracts/courses.ts';
import { emailHtml, escapeHtml, fromSchool, plainText, PRODUCT_NAME, senderOf } from '#core/accounts/password-reset-email.ts';
import { NotFoundError, UpstreamError } from '#core/errors.ts';
import { checkMailOnBehalf, type OnBehalfDeps } from '#core/mail/on-behalf.ts';
import type { CrmEnrollment, CrmRepository } from '#core/crm/ports.ts';
import type { Clock, Ids, Mailer, MailSchool, MailSchoolOf, QuizAttemptRepository } from '#core/ports.ts';

/** One page of the CRM: one query of enrolments and one batch read of their notes, whatever the number of learners. */
export const CRM_PAGE_SIZE = 25;
/** The details panel shows this many timeline entries (newest first). */
export const TIMELINE_LIMIT = 50;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The same answer for a learner who does not exist and for one who is another creator's: nothing to tell apart. */
const learnerNotFound = () => new NotFoundError('No such learner among your courses.');

/** The learner's last lesson activity, or their enrolment date before the first one (SPEC.md section 3). */
const lastActivityOf = (enrollment: CrmEnrollment): string => enrollment.lastActivity ?? enrollment.enrolledAt;

/**
 * Beyond the spec: a learner who has not finished and has had no lesson activity for STALLED_AFTER_DAYS days is worth
 * a nudge from the creator.
 */
export const isStalled = (enrollment: CrmEnrollment, now: Date): boolean =>
  !enrollment.completedAt && now.getTime() - Date.parse(lastActivityOf(enrollment)) >= STALLED_AFTER_DAYS * DAY_MS;

/** The key of an enrolment's pending submissions count (CrmRepository.pendingSubmissions). */
const pendingKey = (e: Pick<CrmEnrollment, 'courseId' | 'learnerId'>): string => `${e.courseId}#${e.learnerId}`;

/** An enrolment as a CRM row, with SPEC.md section 3's defaults for whatever is missing. */
export const crmRow = (enrollment: CrmEnrollment, notes: string | undefined, now: Date, pendingSubmissions = 0): CrmLearner => ({
  id: enrollment.learnerId,
  email: enrollment.learnerEmail || 'Unknown',
  createdAt: enrollment.learnerJoinedAt ?? enrollment.enrolledAt,
  courseId: enrollment.courseId,
  courseName: enrollment.courseTitle || 'Unknown Course',
  progress: enrollment.progress ?? 0,
  lastActivity: lastActivityOf(enrollment),
  notes: notes ?? '',
  stalled: isStalled(enrollment, now),
  pendingSubmissions,
});

export interface CrmDeps {
  crm: CrmRepository;
  clock: Clock;
}

/**
 * GET /api/crm/learners: one row per active enrolment in the caller's courses, newest enrolment first. With
 * `courseId`, that course's only (another creator's course is 404, as if it did not exist).
 */
export const listCrmLearners = async (
  deps: CrmDeps,
  input: { creatorId: string; cursor?: string; courseId?: string },
): Promise<CrmLearnerList> => {
  if (input.courseId !== undefined && (await deps.crm.courseCreator(input.courseId)) !== input.creatorId) {
    throw new NotFoundError('Course not found.');
  }
  const page = await deps.crm.learnersPage({
    creatorId: input.creatorId,
    limit: CRM_PAGE_SIZE,
    ...(input.cursor ? { cursor: input.cursor } : {}),
    ...(input.courseId ? { courseId: input.courseId } : {}),
  });
  const learnerIds = [...new Set(page.items.map((item) => item.learnerId))];
  // The page's notes and its pending submissions: two reads by key, whatever the number of learners.
  const [notes, pending] = learnerIds.length
    ? await Promise.all([deps.crm.getNotes(input.creatorId, learnerIds), deps.crm.pendingSubmissions(page.items)])
    : [new Map<string, never>(), new Map<string, number>()];
  const now = deps.clock.now();
  return {
    items: page.items.map((item) => crmRow(item, notes.get(item.learnerId)?.notes, now, pending.get(pendingKey(item)) ?? 0)),
    nextCursor: page.cursor ?? null,
  };
};

/** The learner's enrolments with this creator; none means they are not the creator's learner: 404, nothing else read. */
const enrollmentsOrNotFound = async (deps: { crm: CrmRepository }, creatorId: string, learnerId: string): Promise<CrmEnrollment[]> => {
  const enrollments = await deps.crm.learnerEnrollments(creatorId, learnerId);
  if (enrollments.length === 0) throw learnerNotFound();
  return enrollments;
};

/** The most recently enrolled course first: its copy of the learner's email and join date is the freshest. */
const newestFirst = (enrollments: CrmEnrollment[]) => [...enrollments].sort((a, b) => b.enrolledAt.localeCompare(a.enrolledAt));

/** GET /api/crm/learners/{learnerId}: the details panel (progress per course, the note, the timeline). */
export const crmLearnerDetails = async (
  deps: CrmDeps & { quizzes: Pick<QuizAttemptRepository, 'listByLearner'> },
  input: { creatorId: string; learnerId: string },
): Promise<CrmLearnerDetails> => {
  const enrollments = newestFirst(await enrollmentsOrNotFound(deps, input.creatorId, input.learnerId));
  const [note, timeline, pending, quizzes] = await Promise.all([
    deps.crm.getNote(input.creatorId, input.learnerId),
    deps.crm.timeline(input.creatorId, input.learnerId, TIMELINE_LIMIT),
    deps.crm.pendingSubmissions(enrollments),
    // The learner's quiz results per course: one Query of each course's partition.
    Promise.all(enrollments.map((e) => deps.quizzes.listByLearner(e.courseId, input.learnerId))),
  ]);
  const now = deps.clock.now();
  const newest = crmRow(enrollments[0]!, note?.notes, now);
  return {
    id: input.learnerId,
    email: enrollments.find((e) => e.learnerEmail)?.learnerEmail ?? newest.email,
    createdAt: newest.createdAt,
    enrollments: enrollments.map((enrollment, i) => {
      const row = crmRow(enrollment, undefined, now, pending.get(pendingKey(enrollment)) ?? 0);
      return {
        courseId: row.courseId,
        courseName: row.courseName,
        progress: row.progress,
        lastActivity: row.lastActivity,
        stalled: row.stalled,
        pendingSubmissions: row.pendingSubmissions,
        enrolledAt: enrollment.enrolledAt,
        completedAt: enrollment.completedAt ?? null,
        quizzes: quizzes[i]!
          .map((q) => ({ lessonId: q.lessonId, title: q.title, attempts: q.attempts, bestScore: q.bestScore, passed: q.passed }))
          .sort((a, b) => a.title.localeCompare(b.title)),
      };
    }),
    notes: note?.notes ?? '',
    notesUpdatedAt: note?.updatedAt ?? null,
    timeline: timeline.map(({ kind, text, sentAt }) => ({ kind, text, sentAt })),
  };
};

/** PUT /api/crm/learners/{learnerId}/notes: the creator's note on one of their learners (404, nothing written, otherwise). */
export const saveLearnerNotes = async (deps: CrmDeps, input: { creatorId: string; learnerId: string; notes: string }): Promise<SavedNotes> => {
  await enrollmentsOrNotFound(deps, input.creatorId, input.learnerId);
  const saved = { notes: input.notes, updatedAt: deps.clock.now().toISOString() };
  await deps.crm.saveNote(input.creatorId, input.learnerId, saved);
  return saved;
};

export interface RecommendationDeps extends CrmDeps, OnBehalfDeps {
  mailer: Mailer;
  ids: Ids;
  /** The web app's origin: the mail links the learner back to their courses. */
  appOrigin: string;
  /** The creator's school (issue 32): a branded creator's message comes from it. */
  mailSchool: MailSchoolOf;
}


/**
 * The email a learner gets: the creator's words quoted inside the platform's (escaped in the HTML, never in the
 * subject: issue 27 point 4), the courses it is about, and the way back to them.
 */
export const recommendationEmail = (input: { recommendation: string; courseNames: string[]; appOrigin: string; school?: MailSchool | undefined }) => {
  const courses = input.courseNames.map(plainText).join(', ');
  const link = new URL('/dashboard/learner', input.appOrigin).toString();
  return {
    subject: `A message from your course creator on ${PRODUCT_NAME}`,
    text: [
      `${senderOf(input.school)}: your course creator sent you this message.`,
      '',
      ...input.recommendation.split('\n').map((line) => `> ${line}`),
      '',
      `About: ${courses}`,
      `Continue learning: ${link}`,
    ].join('\n'),
    html: emailHtml(
      [
        '<p style="margin:0 0 16px;line-height:1.5">Your course creator sent you this message:</p>',
        `<blockquote style="margin:0 0 16px;padding:0 0 0 12px;border-left:3px solid #e4e4e7;line-height:1.5">${escapeHtml(input.recommendation).replace(/\n/g, '<br>')}</blockquote>`,
        `<p style="margin:0 0 16px;line-height:1.5">About: ${escapeHtml(courses)}</p>`,
        `<p style="margin:0"><a href="${escapeHtml(link)}">Continue learning</a></p>`,
      ].join('\n'),
      480,
      input.school,
    ),
    ...fromSchool(input.school),
  };
};

/**
 * POST /api/crm/learners/{learnerId}/recommendations: emails the learner, then records it on their timeline. A mail
 * that SES refuses is 502 and leaves no timeline entry (nothing was sent).
 */
export const sendRecommendation = async (
  deps: RecommendationDeps,
  input: { creatorId: string; learnerId: string; recommendation: string },
): Promise<{ sent: true }> => {
  const enrollments = newestFirst(await enrollmentsOrNotFound(deps, input.creatorId, input.learnerId));
  const to = enrollments.find((e) => e.learnerEmail)?.learnerEmail;
  if (!to) throw learnerNotFound();
  // Mail for the creator: a verified creator, within a trial's daily cap (403 / 429, nothing sent).
  await checkMailOnBehalf(deps, input.creatorId, 'trial-capped');
  const email = recommendationEmail({
    recommendation: input.recommendation,
    courseNames: enrollments.map((e) => e.courseTitle || 'Unknown Course'),
    appOrigin: deps.appOrigin,
    school: await deps.mailSchool(input.creatorId),
  });
  try {
    await deps.mailer.send({ to, ...email });
  } catch (error) {
    throw Object.assign(new UpstreamError('The email could not be sent. Please try again.'), { cause: error });
  }
  await deps.crm.addTimelineEntry(input.creatorId, input.learnerId, {
    id: deps.ids.newId(),
    kind: 'recommendation',
    text: input.recommendation,
    sentAt: deps.clock.now().toISOString(),
  });
  return { sent: true };
};

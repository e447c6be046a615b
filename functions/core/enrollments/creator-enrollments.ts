import type { CourseEnrollment, EnrollResponse } from '#contracts/courses.ts';
import { accountOrInvite } from '#core/accounts/create-account.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import type { Clock, CourseRepository, Directory, Enrollment, EnrollmentRepository, Mailer, MailSchool, StoredCourse, UserRepository } from '#core/ports.ts';
import { invitationEmail } from '#core/enrollments/invitation-email.ts';
import { COURSE_NOT_FOUND } from '#core/courses/courses.ts';
import { checkMailOnBehalf, type OnBehalfDeps } from '#core/mail/on-behalf.ts';

/** A creator's side of enrolments: invite by email, list a course's learners, remove one. */

export const NOT_ENROLLABLE = 'That email belongs to an account that cannot be enrolled.';
export const ENROLLMENT_NOT_FOUND = 'That learner is not enrolled in this course.';

/** The caller's own course, or 404 (another creator's course is indistinguishable from a missing one). */
export const ownCourse = async (courses: Pick<CourseRepository, 'getCourse'>, creatorId: string, courseId: string): Promise<StoredCourse> => {
  const course = await courses.getCourse(courseId);
  if (!course || course.creatorId !== creatorId) throw new NotFoundError(COURSE_NOT_FOUND);
  return course;
};

export interface EnrollDeps extends OnBehalfDeps {
  courses: Pick<CourseRepository, 'getCourse'>;
  enrollments: EnrollmentRepository;
  users: UserRepository;
  directory: Directory;
  mailer: Mailer;
  clock: Clock;
  appOrigin: string;
  /** The creator's school for their learners' emails while branded (core/branding mailSchoolOf), else undefined. */
  mailSchool: (creatorId: string) => Promise<MailSchool | undefined>;
  /** A new temporary password that meets the pool's policy (makeTemporaryPassword with a cryptographic source). */
  temporaryPassword: () => string;
}

/**
 * POST /api/courses/{courseId}/enrollments. Steps: 1. the caller's course; 2. the learner: an existing learner
 * account, or a new one (role learner, temporary password) invited by email, once the creator may send it
 * (core/mail/on-behalf.ts: 403 EMAIL_NOT_VERIFIED, 429 past a trial's daily cap); any other role is 409; 3. the
 * enrolment (a removed one comes back with its progress; an active one is 409).
 * The invitation goes out before the enrolment is written: if the write then fails, the learner can still sign in,
 * and inviting them again enrols the now-existing account.
 */
export const enrollLearner = async (deps: EnrollDeps, input: { creatorId: string; courseId: string; email: string }): Promise<EnrollResponse> => {
  const [course, school] = await Promise.all([ownCourse(deps.courses, input.creatorId, input.courseId), deps.mailSchool(input.creatorId)]);
  const account = await accountOrInvite(deps, {
    email: input.email,
    role: 'learner',
    invitation: (temporaryPassword, user) => invitationEmail({ appOrigin: deps.appOrigin, email: user.email, courseTitle: course.title, temporaryPassword, school }),
    // Inviting mails a stranger for the creator: a verified creator, within a trial's daily cap.
    beforeInvite: () => checkMailOnBehalf(deps, input.creatorId, 'trial-capped'),
  });
  if (!account) throw new ConflictError(NOT_ENROLLABLE);
  const { user: learner, invited } = account;
  const result = await deps.enrollments.enroll({
    courseId: course.id,
    learnerId: learner.id,
    creatorId: input.creatorId,
    learnerEmail: learner.email,
    learnerJoinedAt: learner.createdAt,
    courseTitle: course.title,
    enrolledAt: deps.clock.now().toISOString(),
  });
  if (result.status === 'already') throw new ConflictError(`${learner.email} is already enrolled in this course.`);
  if (result.status === 'gone') throw new NotFoundError(COURSE_NOT_FOUND);
  return { learnerId: learner.id, email: learner.email, invited };
};

const toCourseEnrollment = (e: Enrollment): CourseEnrollment => ({
  learnerId: e.learnerId,
  email: e.learnerEmail,
  enrolledAt: e.enrolledAt,
  progress: e.progress,
  lastActivity: e.lastActivity,
  completedAt: e.completedAt,
});

/** GET /api/courses/{courseId}/enrollments: the course's active learners, one page. */
export const listCourseEnrollments = async (
  deps: { courses: Pick<CourseRepository, 'getCourse'>; enrollments: EnrollmentRepository },
  input: { creatorId: string; courseId: string; cursor?: string },
): Promise<{ items: CourseEnrollment[]; nextCursor: string | null }> => {
  await ownCourse(deps.courses, input.creatorId, input.courseId);
  const page = await deps.enrollments.listByCourse(input.courseId, input.cursor);
  return { items: page.items.filter((e) => e.status === 'active').map(toCourseEnrollment), nextCursor: page.cursor };
};

/** DELETE /api/courses/{courseId}/enrollments/{learnerId}: the learner loses access; their progress is kept. */
export const removeEnrollment = async (
  deps: { courses: Pick<CourseRepository, 'getCourse'>; enrollments: EnrollmentRepository },
  input: { creatorId: string; courseId: string; learnerId: string },
): Promise<void> => {
  await ownCourse(deps.courses, input.creatorId, input.courseId);
  if ((await deps.enrollments.remove(input.courseId, input.learnerId)) === 'missing') throw new NotFoundError(ENROLLMENT_NOT_FOUND);
};

/**
 * DELETE /v1/courses/{courseId}/enrollments/{email} (the public API names learners by email): as `removeEnrollment`;
 * an email with no account, or one not enrolled, is the same 404.
 */
export const removeEnrollmentByEmail = async (
  deps: { courses: Pick<CourseRepository, 'getCourse'>; enrollments: EnrollmentRepository; users: Pick<UserRepository, 'getUserIdByEmail'> },
  input: { creatorId: string; courseId: string; email: string },
): Promise<void> => {
  await ownCourse(deps.courses, input.creatorId, input.courseId);
  const learnerId = await deps.users.getUserIdByEmail(input.email.trim().toLowerCase());
  if (!learnerId || (await deps.enrollments.remove(input.courseId, learnerId)) === 'missing') throw new NotFoundError(ENROLLMENT_NOT_FOUND);
};

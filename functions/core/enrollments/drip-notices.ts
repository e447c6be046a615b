import type { LessonRelease } from '#contracts/courses.ts';
import { nextNoticeAt, noticesDue } from '#core/enrollments/drip.ts';
import { lessonReadyEmail } from '#core/enrollments/lesson-ready-email.ts';
import { type Page, type SliceWork, throughPages } from '#core/jobs/slices.ts';
import { dueMail } from '#core/mail/mail-queue.ts';
import type { Clock, CourseRepository, EnrollmentRepository, Ids, MailSchool, QueuedMail } from '#core/ports.ts';

/**
 * "A new lesson is ready" (issue 33 part 1, docs/decisions/0057-drip-release.md): each learner is emailed once when a
 * drip lesson opens for them, and never for a lesson open when they enrolled. Nothing scans enrolments: each enrolment
 * with an opening ahead has a drip plan (the lessons it was told of, `noticed`, and `dueAt`, the next opening not told
 * of), kept in a sparse time-ordered due index (DATA.md "sparse, time-ordered keys of what is due"):
 * - written when the enrolment is (data/enrollments.ts, from the course's drip rules), and planned again for every
 *   enrolment of the course by a 'course-changed' run when a lesson's release changes ('drip-changed', below);
 * - swept every minute by the 'drip-due' job (functions/jobs/drip-due.ts), a page at a time: each plan due is settled
 *   against its enrolment and the course's outline as they are now.
 * Exactly once: the lessons are added to `noticed` in the very transaction that queues their emails (data/drip.ts),
 * only while none of them is there yet; a sweep run twice, a slice delivered again, two runs at once: the second
 * transaction fails and queues nothing. The mail queue then delivers at least once, its own retries carrying the same
 * email (decisions 0023, 0026).
 */

export const DRIP_DUE_JOB = 'drip-due';
/** Plans read per page of the due index. */
export const DRIP_DUE_PAGE = 50;
/** Plans settled at once in a slice (a few reads and one transaction each). */
export const DRIP_DUE_CONCURRENCY = 8;
/** A plan of a course that is not published (a draft again) is looked at again this much later; nothing is sent meanwhile. */
export const UNPUBLISHED_RETRY_MS = 60 * 60_000;

/** One enrolment's drip plan as stored. */
export interface DripPlan {
  courseId: string;
  learnerId: string;
  /** The lessons whose notice was queued, in the order they were. */
  noticed: string[];
  /** The next opening not noticed yet (its key in the due index); absent: nothing due (out of the index). */
  dueAt?: string | undefined;
}

/** An enrolment as a re-plan pages them: who, since when, whether active. */
export interface DripEnrollment {
  learnerId: string;
  enrolledAt: string;
  status: 'active' | 'removed';
}

/** A course's non-immediate lessons (the 'drip rules' data/courses.ts keeps beside the outline). */
export type DripRules = readonly { id: string; release?: LessonRelease | undefined }[];

export interface DripPlanStore {
  /** One page of the plans due by `now`, earliest first (the due index); `after`: the cursor of the page before. */
  due(now: string, limit: number, after?: string): Promise<{ items: DripPlan[]; nextCursor: string | null }>;
  get(courseId: string, learnerId: string): Promise<DripPlan | undefined>;
  /**
   * The plan's next due time (undefined: out of the index), made when there is none; `before` given: only while its
   * `noticed` is still what was read ('changed' otherwise: a notice landed meanwhile, the next sweep sees it).
   */
  schedule(courseId: string, learnerId: string, dueAt: string | undefined, before?: DripPlan): Promise<'saved' | 'changed'>;
  /**
   * One transaction: `lessonIds` added to the plan's `noticed` (only while none of them is in it), its next due time,
   * and `mails` queued. 'changed' (nothing written) when another run noticed one of them first.
   */
  notice(plan: DripPlan, lessonIds: readonly string[], dueAt: string | undefined, mails: readonly QueuedMail[]): Promise<'saved' | 'changed'>;
  /** One page of a course's enrolments (key order, projected): the 'drip-changed' run's listing. */
  enrollments(courseId: string, cursor: string | undefined): Promise<Page<DripEnrollment>>;
}

export interface DripDueDeps {
  plans: DripPlanStore;
  courses: Pick<CourseRepository, 'getOutline'>;
  enrollments: Pick<EnrollmentRepository, 'get'>;
  /** The creator's school for the email's branding (core/branding mailSchoolOf), undefined when not branded. */
  school: (creatorId: string) => Promise<MailSchool | undefined>;
  appOrigin: string;
  /** Starts a mail sender run for what a slice queued (functions/composition/mail-sender-runs.ts). */
  startSender: (key: string) => Promise<void>;
  ids: Ids;
  clock: Clock;
  warn: (message: string, fields: Record<string, unknown>) => void;
}

export interface DripDueCounts extends Record<string, number> {
  /** Emails queued. */
  noticed: number;
  /** Plans moved to their next opening (or out of the index) with nothing to send. */
  rescheduled: number;
  /** Plans of an enrolment or course that is gone, or an enrolment removed: out of the index. */
  dropped: number;
  /** Plans another run settled first. */
  superseded: number;
  failed: number;
}

/** A plan's next due time, after `noticed`, against the course's lessons and this enrolment (undefined: none left). */
export const planDueAt = (lessons: DripRules, enrolledAt: string, noticed: readonly string[]): string | undefined => nextNoticeAt(lessons, enrolledAt, noticed);

/** One due plan settled: its notices queued with their emails, then its next opening; or out of the index. */
export const settleDripPlan = async (deps: DripDueDeps, plan: DripPlan, counts: DripDueCounts): Promise<boolean> => {
  const now = deps.clock.now();
  const [enrollment, course] = await Promise.all([deps.enrollments.get(plan.courseId, plan.learnerId), deps.courses.getOutline(plan.courseId)]);
  if (!course || enrollment?.status !== 'active') {
    // A removed enrolment restored is planned again then (data/enrollments.ts); a course gone takes its plans with it.
    counts[(await deps.plans.schedule(plan.courseId, plan.learnerId, undefined, plan)) === 'saved' ? 'dropped' : 'superseded']++;
    return false;
  }
  if (course.status !== 'published') {
    const later = new Date(now.getTime() + UNPUBLISHED_RETRY_MS).toISOString();
    counts[(await deps.plans.schedule(plan.courseId, plan.learnerId, later, plan)) === 'saved' ? 'rescheduled' : 'superseded']++;
    return false;
  }
  const due = noticesDue(course.lessons, enrollment.enrolledAt, plan.noticed, now);
  const next = planDueAt(course.lessons, enrollment.enrolledAt, [...plan.noticed, ...due]);
  if (due.length === 0) {
    counts[(await deps.plans.schedule(plan.courseId, plan.learnerId, next, plan)) === 'saved' ? 'rescheduled' : 'superseded']++;
    return false;
  }
  const school = await deps.school(course.creatorId);
  const byId = new Map(course.lessons.map((l) => [l.id, l]));
  const mails = due.map((lessonId) =>
    dueMail(deps, {
      to: enrollment.learnerEmail,
      ...lessonReadyEmail({ appOrigin: deps.appOrigin, courseId: course.id, courseTitle: course.title, lessonId, lessonTitle: byId.get(lessonId)!.title, school }),
    }),
  );
  if ((await deps.plans.notice(plan, due, next, mails)) === 'changed') {
    counts.superseded++;
    return false;
  }
  counts.noticed += mails.length;
  return true;
};

/**
 * The 'drip-due' job's work on a slice: the due index a page at a time, each plan settled (a failure of one is logged
 * and left due, never stopping the others); a mail sender run started for what was queued.
 */
export const runDripDue =
  (deps: DripDueDeps): SliceWork<DripDueCounts> =>
  async (slice, timeUp) => {
    const now = deps.clock.now().toISOString();
    const counts: DripDueCounts = { noticed: 0, rescheduled: 0, dropped: 0, superseded: 0, failed: 0 };
    const { cursor } = await throughPages({
      cursor: slice.cursor,
      timeUp,
      concurrency: DRIP_DUE_CONCURRENCY,
      page: (after) => deps.plans.due(now, DRIP_DUE_PAGE, after),
      handle: async (plan) => {
        try {
          await settleDripPlan(deps, plan, counts);
        } catch (error) {
          counts.failed++;
          deps.warn('a drip plan failed', { courseId: plan.courseId, learnerId: plan.learnerId, error: error instanceof Error ? error.message : String(error) });
        }
      },
    });
    if (counts.noticed > 0) {
      // The schedule's mail sender runs send them within the minute anyway when this start is lost.
      await deps.startSender(`${DRIP_DUE_JOB}@${slice.run}@${slice.seq}`).catch((error: unknown) =>
        deps.warn('the mail sender run was not started', { error: error instanceof Error ? error.message : String(error) }),
      );
    }
    return { cursor, counts };
  };

export interface DripReplanDeps {
  plans: DripPlanStore;
  courses: Pick<CourseRepository, 'getOutline'>;
}

/** Enrolments planned again at once in a slice. */
const REPLAN_CONCURRENCY = 8;

/**
 * A 'drip-changed' run's slice (core/courses/changes.ts): the course's enrolments a page at a time, each active one's
 * plan due at its next opening under the lessons as they are now (made, moved or taken out of the index; written only
 * when it changes). Idempotent: a slice done again writes nothing new. Bounded: a page of projected enrolments and at
 * most a read and a write each, the time checked before each.
 */
export const replanDrip = async (deps: DripReplanDeps, courseId: string, cursor: string | undefined, timeUp: () => boolean) => {
  const counts = { planned: 0, unchanged: 0, superseded: 0 };
  const course = await deps.courses.getOutline(courseId);
  if (!course) return { counts: { ...counts, superseded: 1 } };
  const rules = course.lessons.filter((l) => l.release !== undefined && l.release.kind !== 'immediate');
  const done = await throughPages({
    cursor,
    timeUp,
    concurrency: REPLAN_CONCURRENCY,
    page: (c) => deps.plans.enrollments(courseId, c),
    handle: async (enrollment) => {
      if (enrollment.status !== 'active') return;
      const plan = await deps.plans.get(courseId, enrollment.learnerId);
      const dueAt = planDueAt(rules, enrollment.enrolledAt, plan?.noticed ?? []);
      if (dueAt === plan?.dueAt) {
        counts.unchanged++;
        return;
      }
      counts[(await deps.plans.schedule(courseId, enrollment.learnerId, dueAt, plan)) === 'saved' ? 'planned' : 'superseded']++;
    },
  });
  return { cursor: done.cursor, counts };
};

/** When a new enrolment's first notice is due under the course's drip rules (undefined: the course opens everything at once to it). */
export const firstDueAt = (rules: DripRules, enrolledAt: string): string | undefined => planDueAt(rules, enrolledAt, []);


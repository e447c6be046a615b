import { IMMEDIATE, type LessonRelease } from '#contracts/courses.ts';
import { AppError } from '#core/errors.ts';

/**
 * Drip release (issue 33 part 1; API.md "Drip release and email sequences"): when a lesson opens to one learner, as
 * pure functions of the lesson's `release`, the enrolment's date and the clock's now (callers pass `deps.clock.now()`:
 * tests move the clock instead of waiting days).
 * - `immediate`: open from the start, no notice;
 * - `date`: open from `at` for everyone (a learner who enrols after it finds it open: no notice);
 * - `afterEnrollment`: open `days` x 24 h after this learner's enrolment (the same time of day: no time zone involved).
 * A learner is told once when a lesson opens for them ("A new lesson is ready") only when it was locked for them at
 * enrolment: `availableAt` after `enrolledAt`.
 */

const DAY_MS = 86_400_000;

/** When the lesson opens to a learner enrolled at `enrolledAt` (ISO); null: open from the start (immediate). */
export const availableAt = (release: LessonRelease | undefined, enrolledAt: string): string | null => {
  const rule = release ?? IMMEDIATE;
  if (rule.kind === 'immediate') return null;
  if (rule.kind === 'date') return new Date(rule.at).toISOString();
  return new Date(Date.parse(enrolledAt) + rule.days * DAY_MS).toISOString();
};

/** When the lesson is still locked for this learner at `now`: its opening; undefined once open. */
export const lockedUntil = (release: LessonRelease | undefined, enrolledAt: string, now: Date): string | undefined => {
  const at = availableAt(release, enrolledAt);
  return at !== null && Date.parse(at) > now.getTime() ? at : undefined;
};

export const isOpen = (release: LessonRelease | undefined, enrolledAt: string, now: Date): boolean => lockedUntil(release, enrolledAt, now) === undefined;

/** Whether the learner is told when the lesson opens: it was locked when they enrolled. */
export const opensLater = (release: LessonRelease | undefined, enrolledAt: string): boolean => {
  const at = availableAt(release, enrolledAt);
  return at !== null && Date.parse(at) > Date.parse(enrolledAt);
};

type Released = { id: string; release?: LessonRelease | undefined };

/** The lessons open to the learner at `now`: what their progress counts. */
export const openLessonIds = (lessons: readonly Released[], enrolledAt: string, now: Date): string[] =>
  lessons.filter((l) => isOpen(l.release, enrolledAt, now)).map((l) => l.id);

/** The lessons whose "ready" notice is due at `now`: locked at enrolment, open now, not noticed yet (`noticed`). */
export const noticesDue = (lessons: readonly Released[], enrolledAt: string, noticed: readonly string[], now: Date): string[] => {
  const sent = new Set(noticed);
  return lessons.filter((l) => !sent.has(l.id) && opensLater(l.release, enrolledAt) && isOpen(l.release, enrolledAt, now)).map((l) => l.id);
};

/**
 * When the enrolment's next notice is due (its key in the drip due index): the earliest opening of a lesson locked at
 * enrolment and not noticed yet, past or future; undefined when none is left (the enrolment leaves the index).
 */
export const nextNoticeAt = (lessons: readonly Released[], enrolledAt: string, noticed: readonly string[]): string | undefined => {
  const sent = new Set(noticed);
  const times = lessons
    .filter((l) => !sent.has(l.id) && opensLater(l.release, enrolledAt))
    .map((l) => availableAt(l.release, enrolledAt)!)
    .sort();
  return times[0];
};

/** 403 LESSON_LOCKED with `details: {availableAt}`: a learner route on a lesson not open to them yet. */
export class LessonLockedError extends AppError {
  constructor(availableAt: string) {
    super('LESSON_LOCKED', `This lesson opens on ${new Date(availableAt).toUTCString().replace(/:\d\d GMT$/, ' UTC')}.`, { availableAt });
  }
}

/** Throws LessonLockedError while the lesson is locked for the learner. */
export const mustBeOpen = (lesson: Released, enrolledAt: string, now: Date): void => {
  const until = lockedUntil(lesson.release, enrolledAt, now);
  if (until !== undefined) throw new LessonLockedError(until);
};

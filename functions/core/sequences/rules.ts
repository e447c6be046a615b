import type { Enrollment } from '#core/ports.ts';
import type { LeaveReason, SequenceEntry, StoredSequence } from '#core/sequences/ports.ts';

/**
 * When a learner enters a sequence, when each step is due, and whether it still applies (issue 33 part 2). Pure: the
 * moment is passed in (the jobs' clock port), so the rules that count days are unit tested without waiting any.
 *
 * A trigger event is one enrolment (its `enrolledAt`), one completion (its `completedAt`) or one spell without
 * activity (the `lastActivity` it started from): a learner enters once per event, however often the record that
 * carried it is seen. An inactive learner's entry is written at their activity and waits in the due index until
 * `days` later; if they are active again before, the entry finds `lastActivity` moved and leaves without a word.
 */

const DAY_MS = 86_400_000;

export const addDays = (iso: string, days: number): string => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/** An enrolment as the stream shows it, before and after a change (either absent). */
export type EnrolmentImage = Pick<Enrollment, 'courseId' | 'learnerId' | 'creatorId' | 'learnerEmail' | 'status' | 'enrolledAt' | 'lastActivity' | 'completedAt'>;

/** What a change of an enrolment means for sequences: each trigger event it starts, with its moment. */
export interface TriggerEvent {
  kind: 'enrolled' | 'completed' | 'inactive';
  creatorId: string;
  courseId: string;
  learnerId: string;
  email: string;
  at: string;
  /** For `inactive`: the spell this one replaces (its entry, if it never entered, is dropped). */
  replaces?: string;
}

/**
 * The trigger events of one change: `enrolled` when the enrolment became active (new or restored), `completed` when
 * completedAt was set, and an inactivity watch from each new `lastActivity` of an active enrolment (the enrolment itself
 * starts the first one: lastActivity = enrolledAt until the first completion).
 */
export const triggerEventsOf = (before: EnrolmentImage | undefined, after: EnrolmentImage | undefined): TriggerEvent[] => {
  if (!after || after.status !== 'active') return [];
  const base = { creatorId: after.creatorId, courseId: after.courseId, learnerId: after.learnerId, email: after.learnerEmail };
  const activated = before?.status !== 'active';
  const events: TriggerEvent[] = [];
  if (activated) events.push({ kind: 'enrolled', ...base, at: after.enrolledAt });
  if (after.completedAt && (activated || before?.completedAt !== after.completedAt)) events.push({ kind: 'completed', ...base, at: after.completedAt });
  if (activated || before?.lastActivity !== after.lastActivity) {
    const replaces = !activated && before?.lastActivity ? before.lastActivity : undefined;
    events.push({ kind: 'inactive', ...base, at: after.lastActivity, ...(replaces ? { replaces } : {}) });
  }
  return events;
};

/** Whether a sequence listens to this event: on, the same kind, its course or any course. */
export const listensTo = (sequence: StoredSequence, event: Pick<TriggerEvent, 'kind' | 'courseId'>): boolean =>
  sequence.active && sequence.trigger.kind === event.kind && (sequence.trigger.courseId === null || sequence.trigger.courseId === event.courseId);

/** The event's name on its entry: one entry per sequence, learner, course and event. */
export const eventKey = (kind: TriggerEvent['kind'], at: string): string => `${kind}@${at}`;

/** When the trigger fires: at the event, or `days` after the last activity for `inactive`. */
export const firesAt = (sequence: StoredSequence, eventAt: string): string =>
  sequence.trigger.kind === 'inactive' ? addDays(eventAt, sequence.trigger.days ?? 0) : eventAt;

/** The entry an event makes in a sequence: its first step due its delay after the trigger fires. */
export const entryFor = (sequence: StoredSequence, event: TriggerEvent): SequenceEntry => ({
  sequenceId: sequence.id,
  creatorId: sequence.creatorId,
  courseId: event.courseId,
  learnerId: event.learnerId,
  email: event.email,
  event: eventKey(event.kind, event.at),
  eventAt: event.at,
  step: 0,
  dueAt: addDays(firesAt(sequence, event.at), sequence.steps[0]?.delayDays ?? 0),
  entered: false,
});

/**
 * When the step after `step` is due: its delay after the moment `step` was due (not when it was sent, so a late run
 * does not push every later step back); null when `step` was the last.
 */
export const nextDueAt = (sequence: StoredSequence, step: number, dueAt: string): string | null => {
  const next = sequence.steps[step + 1];
  return next ? addDays(dueAt, next.delayDays) : null;
};

export type Decision = { action: 'send'; step: number; nextDueAt: string | null } | { action: 'leave'; reason: LeaveReason } | { action: 'wait' };

/**
 * What a due entry does now: leave when the sequence is off or gone, the learner is no longer enrolled, an inactive
 * learner came back (their lastActivity moved past the spell), the steps ran out or they unsubscribed from the creator's
 * emails; wait when it is not due yet (read before its time); else send its step.
 */
export const decide = (input: {
  entry: SequenceEntry;
  sequence: StoredSequence | undefined;
  enrolment: Pick<Enrollment, 'status' | 'lastActivity'> | undefined;
  unsubscribed: boolean;
  now: Date;
}): Decision => {
  const { entry, sequence, enrolment } = input;
  if (!sequence) return { action: 'leave', reason: 'gone' };
  if (!sequence.active) return { action: 'leave', reason: 'off' };
  if (enrolment?.status !== 'active') return { action: 'leave', reason: 'removed' };
  if (sequence.trigger.kind === 'inactive' && enrolment.lastActivity !== entry.eventAt) return { action: 'leave', reason: 'returned' };
  if (entry.step >= sequence.steps.length) return { action: 'leave', reason: 'done' };
  if (input.unsubscribed) return { action: 'leave', reason: 'unsubscribed' };
  if (entry.dueAt === null || Date.parse(entry.dueAt) > input.now.getTime()) return { action: 'wait' };
  return { action: 'send', step: entry.step, nextDueAt: nextDueAt(sequence, entry.step, entry.dueAt) };
};

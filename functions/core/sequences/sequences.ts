import { SEQUENCES_MAX, type CreateSequenceBody, type SequenceList, type SequenceStats, type SequenceTrigger, type SequenceView, type UpdateSequenceBody } from '#contracts/sequences.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { Clock, CourseRepository, Ids } from '#core/ports.ts';
import type { SequenceRepository, StoredSequence } from '#core/sequences/ports.ts';

/**
 * A creator's email sequences (issue 33 part 2): made, listed, changed, switched on or off, deleted, and their counts.
 * What they send is core/sequences/sender.ts's; who enters them, core/sequences/entries.ts's.
 */

export interface SequenceDeps {
  sequences: SequenceRepository;
  courses: Pick<CourseRepository, 'getCourse'>;
  clock: Clock;
  ids: Ids;
}

const NOT_FOUND = 'No such sequence.';

export const viewOf = (s: StoredSequence): SequenceView => ({ id: s.id, name: s.name, trigger: s.trigger, steps: s.steps, active: s.active, createdAt: s.createdAt, updatedAt: s.updatedAt });

/** A trigger's course must be one of the creator's (another creator's id reads as unknown, never as theirs). */
const checkCourse = async (deps: Pick<SequenceDeps, 'courses'>, creatorId: string, trigger: SequenceTrigger): Promise<void> => {
  if (trigger.courseId === null) return;
  const course = await deps.courses.getCourse(trigger.courseId);
  if (course?.creatorId !== creatorId)
    throw new ValidationError('That course is not one of yours.', [{ path: 'trigger.courseId', code: 'custom', message: 'Choose one of your courses, or any course.' }]);
};

/** GET /api/sequences: oldest first (the order they were made in). */
export const listSequences = async (deps: Pick<SequenceDeps, 'sequences'>, creatorId: string): Promise<SequenceList> => ({
  items: (await deps.sequences.list(creatorId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).map(viewOf),
});

/** POST /api/sequences: 201 and the sequence; at most SEQUENCES_MAX per creator (409 past it). */
export const createSequence = async (deps: SequenceDeps, creatorId: string, body: CreateSequenceBody): Promise<SequenceView> => {
  await checkCourse(deps, creatorId, body.trigger);
  const at = deps.clock.now().toISOString();
  const sequence: StoredSequence = { creatorId, id: deps.ids.newId(), ...body, createdAt: at, updatedAt: at };
  if ((await deps.sequences.create(sequence, SEQUENCES_MAX)) === 'limit') throw new ConflictError(`You have ${SEQUENCES_MAX} sequences already: delete one first.`);
  return viewOf(sequence);
};

/**
 * PATCH /api/sequences/{sequenceId}: the fields given replace the stored ones. Learners already in it go on from the
 * step they are at, with the steps as they now are (fewer steps: they are done sooner).
 */
export const updateSequence = async (deps: SequenceDeps, creatorId: string, sequenceId: string, body: UpdateSequenceBody): Promise<SequenceView> => {
  const current = await deps.sequences.get(creatorId, sequenceId);
  if (!current) throw new NotFoundError(NOT_FOUND);
  if (body.trigger) await checkCourse(deps, creatorId, body.trigger);
  const next: StoredSequence = {
    ...current,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.trigger !== undefined ? { trigger: body.trigger } : {}),
    ...(body.steps !== undefined ? { steps: body.steps } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
    updatedAt: deps.clock.now().toISOString(),
  };
  if (!(await deps.sequences.save(next))) throw new NotFoundError(NOT_FOUND);
  return viewOf(next);
};

/** DELETE /api/sequences/{sequenceId}: 204; its learners leave it (the sender finds it gone). */
export const deleteSequence = async (deps: Pick<SequenceDeps, 'sequences'>, creatorId: string, sequenceId: string): Promise<void> => {
  if (!(await deps.sequences.remove(creatorId, sequenceId))) throw new NotFoundError(NOT_FOUND);
};

/** GET /api/sequences/{sequenceId}/stats: `sent` has one count per current step (0 for a step not sent yet). */
export const sequenceStatsOf = async (deps: Pick<SequenceDeps, 'sequences'>, creatorId: string, sequenceId: string): Promise<SequenceStats> => {
  const sequence = await deps.sequences.get(creatorId, sequenceId);
  if (!sequence) throw new NotFoundError(NOT_FOUND);
  const counts = await deps.sequences.stats(creatorId, sequenceId);
  return { entered: counts.entered, sent: sequence.steps.map((_, i) => counts.sent[String(i)] ?? 0), unsubscribed: counts.unsubscribed };
};

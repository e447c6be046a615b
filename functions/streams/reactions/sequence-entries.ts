import { enterFromChange, type EntryDeps } from '#core/sequences/entries.ts';
import type { StoredSequence } from '#core/sequences/ports.ts';
import type { EnrolmentImage } from '#core/sequences/rules.ts';
import { sequenceEntryDeps } from '#functions/composition/deps-sequences.ts';
import { describeError } from '#middleware/logger.ts';
import { newImage, oldImage, type Reaction } from '#functions/streams/reactions/reaction.ts';

/** An enrolment image (pk COURSE#<courseId> sk ENROLL#<learnerId>, data/enrollments.ts), or undefined for any other item. */
export const enrolmentOf = (image: Record<string, unknown> | undefined): EnrolmentImage | undefined => {
  if (!image || typeof image['sk'] !== 'string' || !image['sk'].startsWith('ENROLL#')) return undefined;
  const [courseId, learnerId, creatorId, learnerEmail, enrolledAt, lastActivity] = [image['courseId'], image['learnerId'], image['creatorId'], image['learnerEmail'], image['enrolledAt'], image['lastActivity']];
  if ([courseId, learnerId, creatorId, learnerEmail, enrolledAt, lastActivity].some((v) => typeof v !== 'string')) return undefined;
  return {
    courseId: courseId as string,
    learnerId: learnerId as string,
    creatorId: creatorId as string,
    learnerEmail: learnerEmail as string,
    enrolledAt: enrolledAt as string,
    lastActivity: lastActivity as string,
    status: image['status'] === 'active' ? 'active' : 'removed',
    completedAt: typeof image['completedAt'] === 'string' ? image['completedAt'] : null,
  };
};

/**
 * Learners entering email sequences (issue 33 part 2): each change of an active enrolment (the records the consumer's
 * first filter already passes: enrolled, restored, a lesson or the course completed) enters the learner in the
 * creator's sequences that listen to it (core/sequences/entries.ts); a creator's sequences are read once per batch.
 * Idempotent: an entry is written only if not there. The 'sequence-sender' job sends what comes due.
 */
export const sequenceEntries: Reaction<EntryDeps & { written: number }> = {
  name: 'sequence-entries',
  startBatch: () => {
    const deps = sequenceEntryDeps();
    const byCreator = new Map<string, Promise<StoredSequence[]>>();
    const sequencesOf = (creatorId: string) => {
      let known = byCreator.get(creatorId);
      if (!known) {
        known = deps.sequences.list(creatorId);
        byCreator.set(creatorId, known);
        known.catch(() => byCreator.delete(creatorId));
      }
      return known;
    };
    return { entries: deps.entries, sequencesOf, written: 0 };
  },
  async onRecord(batch, record, log) {
    const after = enrolmentOf(newImage(record));
    if (!after) return;
    try {
      batch.written += await enterFromChange(batch, enrolmentOf(oldImage(record)), after);
    } catch (error) {
      log.error('sequence entries not written: retried from this record', { courseId: after.courseId, learnerId: after.learnerId, error: describeError(error) });
      throw error;
    }
  },
  async endBatch(batch, log) {
    if (batch.written > 0) log.info('sequence entries written', { written: batch.written });
  },
};

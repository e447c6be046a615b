import type { SequenceEntryRepository, StoredSequence } from '#core/sequences/ports.ts';
import { entryFor, eventKey, listensTo, triggerEventsOf, type EnrolmentImage } from '#core/sequences/rules.ts';

/**
 * Learners entering sequences, from the table's stream (functions/streams/reactions/sequence-entries.ts): each change
 * of an active enrolment gives its trigger events (core/sequences/rules.ts), and each event one entry in each of the
 * creator's sequences that listens to it, written only if not there (a record seen twice enters nobody twice). A new
 * activity replaces the waiting inactivity entry of the spell before it. Leaving is the sender's: it finds the learner
 * removed, back, or unsubscribed when a step comes due.
 */
export interface EntryDeps {
  /** The creator's sequences (read once per stream batch per creator). */
  sequencesOf: (creatorId: string) => Promise<StoredSequence[]>;
  entries: Pick<SequenceEntryRepository, 'enter' | 'dropWaiting'>;
}

/** Enters what one enrolment change starts: how many entries were written. */
export const enterFromChange = async (deps: EntryDeps, before: EnrolmentImage | undefined, after: EnrolmentImage | undefined): Promise<number> => {
  const events = triggerEventsOf(before, after);
  if (events.length === 0) return 0;
  const sequences = await deps.sequencesOf(events[0]!.creatorId);
  let written = 0;
  for (const event of events) {
    for (const sequence of sequences) {
      if (!listensTo(sequence, event)) continue;
      if (await deps.entries.enter(entryFor(sequence, event))) written++;
      if (event.replaces !== undefined) {
        await deps.entries.dropWaiting({ sequenceId: sequence.id, courseId: event.courseId, learnerId: event.learnerId, event: eventKey('inactive', event.replaces) });
      }
    }
  }
  return written;
};

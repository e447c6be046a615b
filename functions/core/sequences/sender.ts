import { throughPages, type SliceWork } from '#core/jobs/slices.ts';
import type { Clock, EnrollmentRepository, MailSchool, QueuedMail } from '#core/ports.ts';
import { learnerNameOf, sequenceEmail } from '#core/sequences/email.ts';
import type { SchoolUnsubscribes, SequenceEntry, SequenceEntryRepository, SequenceRepository, StoredSequence } from '#core/sequences/ports.ts';
import { decide } from '#core/sequences/rules.ts';
import { onceByKey } from '#core/once-by-key.ts';

/**
 * The 'sequence-sender' job (every minute, in slices: decision 0033): the entries due (their sparse index, a page at a
 * time), each decided afresh from the sequence, the enrolment and the creator's unsubscribes as they are now
 * (core/sequences/rules.ts decide). A step that goes is one transaction, conditional on the entry as read: the entry
 * moves on, its email is put in the mail queue (the mail sender sends it, at least once like every queued email), the
 * sequence's counts move; a run that read the same entry finds it moved and does nothing, so each step is queued once
 * per learner and trigger event. A slice that queued emails starts a mail-sender run at its end.
 */

/** Due entries read per page. */
export const DUE_ENTRIES_PAGE = 25;
/** Entries handled at once in a slice (each a few reads and one transaction). */
export const DUE_ENTRIES_CONCURRENCY = 4;

export interface SequenceSenderDeps {
  sequences: Pick<SequenceRepository, 'get'>;
  entries: SequenceEntryRepository;
  enrolments: Pick<EnrollmentRepository, 'get'>;
  unsubscribes: Pick<SchoolUnsubscribes, 'unsubscribed'>;
  /** The addresses SES reported bounced or complained about (or that left the platform's mail): never mailed. */
  suppressed: (emails: readonly string[]) => Promise<Set<string>>;
  /** The learner's certificate name, when they gave one. */
  learnerName: (learnerId: string) => Promise<string | undefined>;
  /** The creator's school while branded (core/branding mailSchoolOf). */
  school: (creatorId: string) => Promise<MailSchool | undefined>;
  /** The address's unsubscribe link for the creator's emails, and its RFC 8058 headers. */
  unsubscribeLink: (creatorId: string, email: string) => Promise<{ url: string; headers: { name: string; value: string }[] }>;
  sanitize: (html: string) => string;
  clock: Clock;
  /** Starts a mail-sender run (the queued steps go out at once, not at its next minute). */
  startSender: (key: string) => Promise<void>;
  warn: (message: string, fields: Record<string, unknown>) => void;
}

export interface SequenceSenderCounts extends Record<string, number> {
  queued: number;
  left: number;
  /** Read before it was due, or moved by another run meanwhile. */
  skipped: number;
  failed: number;
}

/** The mail queue's id of a step's email: one per sequence, course, learner, event and step (read in the logs). */
export const stepMailId = (entry: SequenceEntry, step: number): string => `sequence:${entry.sequenceId}:${entry.courseId}:${entry.learnerId}:${entry.event}:${step}`;

/** One due entry: sent its step, left, or let be. */
export const settleEntry = async (
  deps: SequenceSenderDeps,
  read: SequenceEntry,
  counts: SequenceSenderCounts,
  memo: { sequence: (key: string) => Promise<StoredSequence | undefined>; school: (creatorId: string) => Promise<MailSchool | undefined> },
): Promise<void> => {
  const entry = await deps.entries.get(read);
  if (!entry || entry.dueAt === null) {
    counts.skipped++;
    return;
  }
  const email = entry.email.toLowerCase();
  const [sequence, enrolment, unsubscribed, suppressed] = await Promise.all([
    memo.sequence(`${entry.creatorId}/${entry.sequenceId}`),
    deps.enrolments.get(entry.courseId, entry.learnerId),
    deps.unsubscribes.unsubscribed(entry.creatorId, [email]),
    deps.suppressed([email]),
  ]);
  const now = deps.clock.now();
  const decision = decide({ entry, sequence, enrolment, unsubscribed: unsubscribed.has(email) || suppressed.has(email), now });
  if (decision.action === 'wait') {
    counts.skipped++;
    return;
  }
  if (decision.action === 'leave') {
    if (await deps.entries.leave(entry, decision.reason, now.toISOString())) counts.left++;
    else counts.skipped++;
    return;
  }
  const step = sequence!.steps[decision.step]!;
  const [name, school, link] = await Promise.all([deps.learnerName(entry.learnerId), memo.school(entry.creatorId), deps.unsubscribeLink(entry.creatorId, entry.email)]);
  const message = sequenceEmail({
    to: entry.email,
    step,
    learnerName: learnerNameOf(name, entry.email),
    courseTitle: enrolment!.courseTitle,
    school,
    unsubscribeUrl: link.url,
    headers: link.headers,
    sanitize: deps.sanitize,
  });
  const at = now.toISOString();
  const mail: QueuedMail = { ...message, id: stepMailId(entry, decision.step), queuedAt: at, dueAt: at, tries: 0 };
  if (await deps.entries.advance(entry, { nextDueAt: decision.nextDueAt, mail, entered: !entry.entered })) counts.queued++;
  else counts.skipped++;
};

/** The job's work on one slice: the due index a page at a time; a failing entry is logged and stays due. */
export const runSequenceSender =
  (deps: SequenceSenderDeps): SliceWork<SequenceSenderCounts> =>
  async (slice, timeUp) => {
    const now = deps.clock.now().toISOString();
    const counts: SequenceSenderCounts = { queued: 0, left: 0, skipped: 0, failed: 0 };
    const memo = {
      sequence: onceByKey((key) => {
        const [creatorId = '', sequenceId = ''] = key.split('/');
        return deps.sequences.get(creatorId, sequenceId);
      }),
      school: onceByKey((creatorId) => deps.school(creatorId)),
    };
    const { cursor } = await throughPages({
      cursor: slice.cursor,
      timeUp,
      concurrency: DUE_ENTRIES_CONCURRENCY,
      page: (after) => deps.entries.due(now, DUE_ENTRIES_PAGE, after),
      handle: async (entry) => {
        try {
          await settleEntry(deps, entry, counts, memo);
        } catch (error) {
          counts.failed++;
          deps.warn('a due sequence entry failed', { sequenceId: entry.sequenceId, learnerId: entry.learnerId, error: error instanceof Error ? error.message : String(error) });
        }
      },
    });
    if (counts.queued > 0) {
      await deps.startSender(`sequences:${slice.run}:${slice.lane}:${slice.seq}`).catch((error: unknown) =>
        deps.warn('the mail sender was not started: the queued steps go with its next run', { error: error instanceof Error ? error.message : String(error) }),
      );
    }
    return { cursor, counts };
  };

import type { DynamoDBRecord } from 'aws-lambda';
import { inviteLateEnrolee, type SessionMailDeps } from '#core/live-sessions/invitations.ts';
import { sessionMailDeps } from '#functions/composition/deps-live-sessions.ts';
import { describeError } from '#middleware/logger.ts';
import { newImage, oldImage, perBatch, type Reaction } from '#functions/streams/reactions/reaction.ts';

/**
 * An enrolment (pk COURSE#<courseId> sk ENROLL#<learnerId>, data/enrollments.ts) that became active in this record:
 * made active, or restored from 'removed'. Anything else (another item, a progress write, a removal) is not.
 */
export const enrolmentActivated = (record: DynamoDBRecord): { courseId: string; learnerId: string; email: string } | undefined => {
  const after = newImage(record);
  const before = oldImage(record);
  if (!after || typeof after['sk'] !== 'string' || !after['sk'].startsWith('ENROLL#') || after['status'] !== 'active') return undefined;
  if (before?.['status'] === 'active') return undefined;
  const [courseId, learnerId, email] = [after['courseId'], after['learnerId'], after['learnerEmail']];
  return typeof courseId === 'string' && typeof learnerId === 'string' && typeof email === 'string' ? { courseId, learnerId, email } : undefined;
};

/**
 * The invitations' dependencies for one batch: a course's upcoming sessions, title and school read once per batch, however many
 * of its learners enrolled in it (a flash sale's batch of 100 enrolments in one course reads them once, not 100 times).
 */
export const batchSessionMailDeps = (deps: SessionMailDeps): SessionMailDeps => {
  const now = deps.clock.now().toISOString();
  const upcoming = perBatch((courseId) => deps.store.upcoming(courseId, now));
  return {
    ...deps,
    store: { ...deps.store, upcoming: (courseId) => upcoming(courseId), courseTitle: perBatch((courseId) => deps.store.courseTitle(courseId)) },
    // A creator's school (issue 32), read once per batch too.
    mailSchool: perBatch((creatorId) => deps.mailSchool(creatorId)),
  };
};

/**
 * Learners enrolling later (issue 30 point 3): each enrolment that became active queues that learner's invitation to
 * each of the course's sessions still ahead, under the learner's claim (data/session-mail.ts), so a record seen again
 * queues nothing twice; a course's sessions are read once per batch; the mail sender's run is started once per batch
 * that queued something.
 */
export const sessionInvitations: Reaction<{ deps: SessionMailDeps; queued: number; key: string | undefined }> = {
  name: 'session-invitations',
  startBatch: () => ({ deps: batchSessionMailDeps(sessionMailDeps()), queued: 0, key: undefined }),
  async onRecord(batch, record, log) {
    const enrolment = enrolmentActivated(record);
    if (!enrolment) return;
    batch.key ??= record.dynamodb?.SequenceNumber;
    try {
      batch.queued += await inviteLateEnrolee(batch.deps, enrolment);
    } catch (error) {
      log.error('late enrolee not invited: retried from this record', { courseId: enrolment.courseId, learnerId: enrolment.learnerId, error: describeError(error) });
      throw error;
    }
  },
  async endBatch(batch, log) {
    if (batch.queued === 0) return;
    await batch.deps.startSender(`session-invitations:${batch.key ?? 'batch'}`);
    log.info('late enrolees invited', { queued: batch.queued });
  },
};

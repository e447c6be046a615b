import type { DynamoDBRecord } from 'aws-lambda';
import { inviteLateEnrolee } from '#core/live-sessions/invitations.ts';
import { sessionMailDeps } from '#functions/composition/deps-live-sessions.ts';
import { describeError } from '#middleware/logger.ts';
import { newImage, oldImage, type Reaction } from '#functions/streams/reactions/reaction.ts';

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
 * Learners enrolling later (issue 30 point 3): each enrolment that became active queues that learner's invitation to
 * each of the course's sessions still ahead, under the learner's claim (data/session-mail.ts), so a record seen again
 * queues nothing twice; the mail sender's run is started once per batch that queued something.
 */
export const sessionInvitations: Reaction<{ deps: ReturnType<typeof sessionMailDeps>; queued: number; key: string | undefined }> = {
  name: 'session-invitations',
  startBatch: () => ({ deps: sessionMailDeps(), queued: 0, key: undefined }),
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

import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { inviteLateEnrolee } from '#core/live-sessions/invitations.ts';
import { sessionMailDeps } from '#functions/composition/deps-live-sessions.ts';
import { eventHandlers } from '#functions/routes.ts';
import { invocation } from '#middleware/invocation.ts';
import { describeError } from '#middleware/logger.ts';

const imageOf = (image: Record<string, unknown> | undefined) => (image ? unmarshall(image as Record<string, AttributeValue>) : undefined);

/**
 * An enrolment (pk COURSE#<courseId> sk ENROLL#<learnerId>, data/enrollments.ts) that became active in this record:
 * made active, or restored from 'removed'. Anything else (another item, a progress write, a removal) is not.
 */
export const enrolmentActivated = (record: DynamoDBRecord): { courseId: string; learnerId: string; email: string } | undefined => {
  const after = imageOf(record.dynamodb?.NewImage);
  const before = imageOf(record.dynamodb?.OldImage);
  if (!after || typeof after['sk'] !== 'string' || !after['sk'].startsWith('ENROLL#') || after['status'] !== 'active') return undefined;
  if (before?.['status'] === 'active') return undefined;
  const [courseId, learnerId, email] = [after['courseId'], after['learnerId'], after['learnerEmail']];
  return typeof courseId === 'string' && typeof learnerId === 'string' && typeof email === 'string' ? { courseId, learnerId, email } : undefined;
};

/**
 * Learners enrolling later (issue 30 point 3): the table's stream, filtered in AWS to enrolment items by its event
 * source (lib/stacks/jobs-stack.ts; the local poller hands over every record, so the handler checks again). Each
 * enrolment that became active queues that learner's invitation to each of the course's sessions still ahead, under
 * the learner's claim (data/session-mail.ts): a batch delivered again queues nothing twice. A record that fails is
 * reported (ReportBatchItemFailures): the batch is retried from it, the records before it not again.
 */
export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
  invocation({ job: eventHandlers.sessionInvitations.name }, async (log) => {
    const deps = sessionMailDeps();
    let queued = 0;
    for (const record of event.Records ?? []) {
      const enrolment = enrolmentActivated(record);
      if (!enrolment) continue;
      try {
        queued += await inviteLateEnrolee(deps, enrolment);
      } catch (error) {
        log.error('late enrolee not invited: retried from this record', { courseId: enrolment.courseId, learnerId: enrolment.learnerId, error: describeError(error) });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    if (queued > 0) {
      const key = `session-invitations:${event.Records[0]?.dynamodb?.SequenceNumber ?? 'batch'}`;
      await deps.startSender(key).catch((error: unknown) => log.warn('sender not started: the queued invitations go with its next scheduled run', { error: String(error) }));
    }
    log.info('stream batch', { records: event.Records?.length ?? 0, queued });
    return { batchItemFailures: [] };
  });

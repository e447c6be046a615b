import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetJobQueues } from '#adapters/sqs-slice-queue.ts';
import { SLICE_MARGIN_MS, type SliceWork } from '#core/jobs/slices.ts';
import { courseKeys } from '#data/courses.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { dynamoLicenses } from '#data/licenses.ts';
import { batchWrite } from '#data/table.ts';
import { resetConfig } from '#functions/config.ts';
import { work } from '#functions/jobs/license-expiry.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { type Delivery, type JobEventSource, startJobEventSource } from '#lib/local/sqs/event-source.ts';
import { startSqsStandIn, type SqsStandIn } from '#lib/local/sqs/stand-in.ts';
import { useLocalCloudEnv } from './support.ts';

/**
 * Licence expiry through the job engine's real local wiring (the SQS stand-in, the event source's poller, the job's
 * handler and the SQS adapter) against DynamoDB Local: a licence of 250 seats ended in a lane of its own beside small
 * ones, a slice of that lane killed mid-way. A stand-in of this test's own, so it can run a handler that dies once.
 */
let standIn: SqsStandIn | undefined;
let source: JobEventSource | undefined;
afterEach(async () => {
  await source?.stop();
  await standIn?.stop();
  source = standIn = undefined;
});

describe('a licence expiry run killed mid-slice, through the queue and its poller', () => {
  it('ends every due licence and removes each seat holder once; the big licence in its lane; no dead letter', async () => {
    useLocalCloudEnv();
    const tag = randomUUID().slice(0, 8);
    const courseId = `expiry-kill-${tag}`;
    await batchWrite([{ PutRequest: { Item: { ...courseKeys.course(courseId), type: 'Course', id: courseId, enrolledCount: 0 } } }]);
    const licenses = dynamoLicenses();
    const enrollments = dynamoEnrollments();
    const expiresAt = new Date(Date.now() - 60_000).toISOString();
    const seated: string[] = [];
    const add = async (licenseId: string, seats: number) => {
      await licenses.create({ id: licenseId, courseId, courseTitle: 'Drills', creatorId: 'creator-1', leaderId: 'leader-1', leaderEmail: 'lead@example.com', seatsTotal: seats, seatsUsed: 0, expiresAt, status: 'active', source: 'granted', orderId: null, createdAt: expiresAt });
      for (let i = 0; i < seats; i += 10) {
        await Promise.all(
          Array.from({ length: Math.min(10, seats - i) }, async (_, j) => {
            const learnerId = `${licenseId}-l${i + j}`;
            await licenses.assign({ licenseId, email: `${learnerId}@example.com`, learnerId, status: 'active', assignedAt: expiresAt });
            await enrollments.enroll({ courseId, learnerId, creatorId: 'creator-1', learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: expiresAt, courseTitle: 'Drills', enrolledAt: expiresAt, licenseId });
            seated.push(learnerId);
          }),
        );
      }
    };
    const big = `big-${tag}`;
    const small = [`a-${tag}`, `b-${tag}`, `c-${tag}`];
    await add(big, 250);
    for (const id of small) await add(id, 3);

    // The job's own work, with one fault: the first delivery of the big licence's second slice dies after 20 seats.
    // Its slices stop after 60 seats at most, so the lane has several whatever the machine's speed.
    let died = false;
    const dying = (remainingMs: () => number): SliceWork<{ ended: number; seats: number; lanes: number }> => {
      const real = work(remainingMs);
      return (slice, timeUp) => {
        let checks = 0;
        if (slice.lane === `main.${big}` && slice.seq === 1 && !died) {
          return real(slice, () => {
            if (++checks === 20) {
              died = true;
              throw new Error('killed mid-slice');
            }
            return false;
          });
        }
        return real(slice, () => ++checks >= 60 || timeUp());
      };
    };
    const handler = slicedJob('license-expiry', dying);

    const deliveries: Delivery[] = [];
    standIn = await startSqsStandIn({ port: 0 });
    source = await startJobEventSource({
      endpoint: standIn.url,
      region: 'eu-west-2',
      jobs: [{ name: 'license-expiry', handler: 'jobs/license-expiry', timeoutMs: SLICE_MARGIN_MS + 2_000 }],
      visibilityTimeoutSeconds: () => 2,
      log: () => undefined,
      load: () => Promise.resolve(handler as never),
      onDelivery: (delivery) => deliveries.push(delivery),
    });
    process.env['SQS_ENDPOINT'] = standIn.url;
    process.env['JOB_QUEUE_URLS'] = JSON.stringify(source.queueUrls);
    resetConfig();
    resetJobQueues();

    const started = (await handler({ time: new Date().toISOString() })) as { started: string };
    expect(started.started).toMatch(/^license-expiry@/);
    const queueUrl = source.queueUrls['license-expiry']!;
    const deadline = Date.now() + 120_000;
    while (deliveries.length === 0 || (await source.pending(queueUrl)) > 0) {
      if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(deliveries.slice(-5))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(died).toBe(true);
    const killed = deliveries.filter((d) => d.outcome !== 'deleted');
    expect(killed).toEqual([expect.objectContaining({ outcome: 'failed', receiveCount: 1 })]);
    expect(deliveries).toContainEqual(expect.objectContaining({ messageId: killed[0]!.messageId, receiveCount: 2, outcome: 'deleted' }));
    expect(await source.pending(source.deadLetterQueueUrl)).toBe(0);
    for (const id of [big, ...small]) expect((await licenses.get(id))?.status).toBe('ended');
    const left = await Promise.all(seated.map((learnerId) => enrollments.get(courseId, learnerId)));
    expect(left.filter((e) => e?.status !== 'removed')).toEqual([]);
  }, 240_000);
});

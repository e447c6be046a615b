import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SLICE_MARGIN_MS } from '#core/jobs/slices.ts';
import { courseKeys } from '#data/courses.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { dynamoLicenses } from '#data/licenses.ts';
import { batchWrite } from '#data/table.ts';
import { work } from '#functions/jobs/license-expiry.ts';
import { expectKilledOnceAndRedelivered, runKilledThroughQueue } from './kill-support.ts';
import { useLocalCloudEnv } from './support.ts';

/**
 * Licence expiry through the job engine's real local wiring (the SQS stand-in, the event source's poller, the job's
 * handler and the SQS adapter) against DynamoDB Local (kill-support.ts): a licence of 250 seats ended in a lane of its
 * own beside small ones, a slice of that lane killed mid-way.
 */

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
    const run = await runKilledThroughQueue({
      job: 'license-expiry',
      work,
      timeoutMs: SLICE_MARGIN_MS + 2_000,
      kill: { at: (slice) => slice.lane === `main.${big}` && slice.seq === 1, afterChecks: 20 },
      itemsPerSlice: () => 60,
      finishWithinMs: 120_000,
    });

    expectKilledOnceAndRedelivered(run);
    for (const id of [big, ...small]) expect((await licenses.get(id))?.status).toBe('ended');
    const left = await Promise.all(seated.map((learnerId) => enrollments.get(courseId, learnerId)));
    expect(left.filter((e) => e?.status !== 'removed')).toEqual([]);
  }, 240_000);
});

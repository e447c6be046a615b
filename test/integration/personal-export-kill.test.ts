import { randomUUID } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3Client } from '#adapters/s3-file-store.ts';
import { EXPORTS_PREFIX } from '#adapters/s3-export-files.ts';
import { SLICE_MARGIN_MS } from '#core/jobs/slices.ts';
import { exportKey, personalExportSlice, personalExportWork } from '#core/personal-exports/personal-exports.ts';
import { PERSONAL_EXPORT_JOB } from '#core/personal-exports/ports.ts';
import { courseKeys } from '#data/courses.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { dynamoPersonalExports } from '#data/personal-exports.ts';
import { batchWrite } from '#data/table.ts';
import { dynamoUsers } from '#data/users.ts';
import { required } from '#functions/config.ts';
import { personalExportDeps } from '#functions/jobs/personal-export.ts';
import { unzip } from '#test/functions/fakes/unzip.ts';
import { expectKilledOnceAndRedelivered, runKilledThroughQueue } from './kill-support.ts';
import { useLocalCloudEnv } from './support.ts';

/**
 * A creator's "Download my data" through the job engine's real local wiring (the SQS stand-in, the event source's
 * poller, the job's handler and the SQS adapter), against DynamoDB Local and the S3 emulator (kill-support.ts), with
 * parts of 4 KiB instead of S3's 5 MiB so a CRM of a few hundred rows takes many parts and slices (decision 0062).
 * A slice dies mid-way, is delivered again and goes on from the last part saved: the ZIP opens, every CRC holds, and
 * every CRM row is in it exactly once.
 */

const LEARNERS = 240;
const COURSES = 3;
const PART_BYTES = 4096;

describe('a personal data export killed mid-slice, through the queue and its poller', () => {
  it("writes a creator's ZIP in many parts across slices, and after the kill it still holds every CRM row exactly once", async () => {
    useLocalCloudEnv();
    const tag = randomUUID().slice(0, 8);
    const creatorId = `export-kill-${tag}`;
    const email = `${creatorId}@example.com`;
    const at = new Date().toISOString();
    await dynamoUsers().createUser({ id: creatorId, email, role: 'creator', createdAt: at });
    const enrollments = dynamoEnrollments();
    const rows = new Set<string>();
    for (let c = 0; c < COURSES; c++) {
      const courseId = `${creatorId}-c${c}`;
      // An enrolment is kept only while its course is there (data/enrollments.ts).
      await batchWrite([{ PutRequest: { Item: { ...courseKeys.course(courseId), type: 'Course', id: courseId, enrolledCount: 0 } } }]);
      for (let i = 0; i < LEARNERS / COURSES; i += 20) {
        await Promise.all(
          Array.from({ length: 20 }, async (_, j) => {
            const learnerId = `${courseId}-l${i + j}`;
            await enrollments.enroll({ courseId, learnerId, creatorId, learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: at, courseTitle: `Course ${c}`, enrolledAt: at });
            rows.add(`${learnerId} ${courseId}`);
          }),
        );
      }
    }
    const exportId = randomUUID();
    expect(await dynamoPersonalExports().request({ userId: creatorId, exportId, requestedAt: at, staleBefore: new Date(Date.now() - 3600_000).toISOString() })).toBe(exportId);

    // The job's own work and adapters, with parts of 4 KiB and the mail sender's start noted (it has no queue here).
    const senders: string[] = [];
    const run = await runKilledThroughQueue({
      job: PERSONAL_EXPORT_JOB,
      work: () => personalExportWork({ ...personalExportDeps(), partBytes: PART_BYTES, startSender: async (key) => void senders.push(key) }),
      timeoutMs: SLICE_MARGIN_MS + 2_000,
      // Every slice stops after two pauses (a page, a step); the third slice dies after one, its work since its start lost.
      kill: { at: (slice) => slice.seq === 2, afterChecks: 1 },
      itemsPerSlice: () => 2,
      finishWithinMs: 90_000,
      first: personalExportSlice(creatorId, exportId),
    });

    expectKilledOnceAndRedelivered(run);
    expect(run.deliveries.filter((d) => d.outcome === 'deleted').length).toBeGreaterThanOrEqual(5);
    const done = await dynamoPersonalExports().get(creatorId, exportId);
    expect(done).toMatchObject({ status: 'ready' });
    expect(done?.progress).toBeUndefined();
    expect(senders).toEqual([`personal-export@${exportId}`]);

    const { Body } = await s3Client().send(new GetObjectCommand({ Bucket: required('FILES_BUCKET'), Key: `${EXPORTS_PREFIX}${exportKey(creatorId, exportId)}` }));
    const archive = await Body!.transformToByteArray();
    // Many parts of at least 4 KiB: the CRM alone is ~100 KB.
    expect(archive.length).toBeGreaterThan(20 * PART_BYTES);
    const files = unzip(archive);
    expect([...files.keys()]).toEqual([
      'README.txt',
      'account.json',
      'enrolments.json',
      'left-courses.json',
      'certificates.json',
      'orders.json',
      'creator/courses.json',
      'creator/crm-learners.json',
      'creator/support-requests.json',
      'comments.json',
    ]);
    const crm = JSON.parse(files.get('creator/crm-learners.json')!.toString('utf8')) as { learnerId: string; courseId: string }[];
    const found = crm.map((r) => `${r.learnerId} ${r.courseId}`);
    expect(found).toHaveLength(rows.size);
    expect(new Set(found)).toEqual(rows);
    expect(JSON.parse(files.get('account.json')!.toString('utf8'))).toContainEqual(expect.objectContaining({ email }));
  }, 180_000);
});

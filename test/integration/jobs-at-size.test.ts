import { beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredCommission } from '#core/ports.ts';
import { affiliateKeys } from '#data/affiliates.ts';
import { readCounter } from '#data/sharded-counters.ts';
import { batchWrite } from '#data/table.ts';
import { work as approvalWork } from '#functions/jobs/commission-approval.ts';
import { work as expiryWork } from '#functions/jobs/license-expiry.ts';
import { issueDueCertificates } from '#core/certificates/certificates.ts';
import { issueDeps } from '#functions/composition/deps-certificates.ts';
import { dynamoCertificates } from '#data/certificates.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { sendWeeklyReports } from '#core/licenses/weekly-report.ts';
import { dynamoUsers } from '#data/users.ts';
import { weeklyReportDeps } from '#functions/composition/deps-campaigns.ts';
import { scopedLog } from '#middleware/logger.ts';
import { courseKeys } from '#data/courses.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { dynamoLicenses } from '#data/licenses.ts';
import { maxConcurrencyOf } from '#lib/constructs/job-queue-names.ts';
import { runSliced } from '#test/functions/fakes/sliced-run.ts';
import { accountWithRole, api, dynamo, outputs, uniqueEmail, useLocalCloudEnv } from './support.ts';
import { mailsToEach } from './mail-support.ts';
import { unique } from './data/data-support.ts';

/**
 * The scheduled jobs at size (issue 28 point 1) on the local cloud's DynamoDB, through the real data modules: each
 * job's run cut into many small slices, one slice killed mid-way and delivered again, and every item done exactly once.
 */
beforeAll(useLocalCloudEnv);

/**
 * The mail jobs pace their sends at a fifth of SES's MaxSendRate (the stand-in's 50 a second: 10 emails a second, 20 s
 * of waiting for 200 emails). The pace is the unit tests' (test/functions/core/mail/mail-sender.test.ts and the like);
 * here the jobs' sleeps are skipped, as the weekly report's below: what these runs prove is each item done once.
 */
const noSleep = async () => undefined;
const log = scopedLog({ job: 'jobs-at-size' });
const issueWithoutPace = (_remainingMs: () => number) => issueDueCertificates({ ...issueDeps((message, fields) => log.warn(message, fields)), sleep: noSleep });
const mailSenderWithoutPace = (remainingMs: () => number) => mailSenderWork(remainingMs, { sleep: noSleep });

const items = async (pk: string, prefix: string) =>
  (
    await dynamo().send(
      new QueryCommand({ TableName: outputs().TableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': pk, ':p': prefix }, ConsistentRead: true }),
    )
  ).Items ?? [];

describe('commission-approval in slices', () => {
  it('approves 200 due commissions exactly once over many slices, a killed slice included', async () => {
    const creatorId = unique('creator');
    const affiliateId = unique('aff');
    const past = new Date(Date.now() - 86_400_000);
    await batchWrite([
      { PutRequest: { Item: { ...affiliateKeys.affiliate(creatorId, affiliateId), type: 'Affiliate', id: affiliateId, creatorId, pending: 200 * 50, approved: 0 } } },
      ...Array.from({ length: 200 }, (_, i) => {
        const c: StoredCommission = {
          affiliateId,
          creatorId,
          orderId: `order-${String(i).padStart(3, '0')}`,
          courseTitle: 'Bread',
          orderAmount: 200,
          amount: 50,
          status: 'pending',
          approveAt: new Date(past.getTime() + i).toISOString(),
          createdAt: past.toISOString(),
          paidAt: null,
          clawback: false,
        };
        return { PutRequest: { Item: { ...affiliateKeys.commission(affiliateId, c.orderId), type: 'Commission', ...c, ...affiliateKeys.due(c) } } };
      }),
    ]);

    const run = await runSliced('commission-approval', approvalWork, { itemsPerSlice: 15, kill: { seq: 4, afterChecks: 7 } });

    expect(run.kills).toBe(1);
    expect(run.slices).toBeGreaterThan(12);
    const commissions = await items(`AFFILIATE#${affiliateId}`, 'COMMISSION#');
    expect(commissions).toHaveLength(200);
    expect(commissions.every((c) => c['status'] === 'approved')).toBe(true);
    // Each moved once: the affiliate's figures moved by exactly the 200 amounts.
    // The figures seeded on the item plus its shards' moves (data/sharded-counters.ts), as the affiliate reads sum them.
    const [affiliate] = await items(`CREATOR#${creatorId}`, `AFFILIATE#${affiliateId}`);
    const moved = await readCounter(affiliateKeys.figures(affiliateId), { consistent: true });
    const figure = (name: string) => Number(affiliate?.[name] ?? 0) + (moved[name] ?? 0);
    expect({ pending: figure('pending'), approved: figure('approved') }).toEqual({ pending: 0, approved: 200 * 50 });
  });
});

/** Runs `task` over `items`, `n` at a time. */
const inParallel = async <T>(items: readonly T[], n: number, task: (item: T) => Promise<unknown>) => {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
};

describe('license-expiry in slices', () => {
  it('ends a licence of 450 seats (its own lane) and the small ones due with it, each seat holder removed once', async () => {
    const courseId = unique('course');
    await batchWrite([{ PutRequest: { Item: { ...courseKeys.course(courseId), type: 'Course', id: courseId, enrolledCount: 0 } } }]);
    const licenses = dynamoLicenses();
    const enrollments = dynamoEnrollments();
    const expiresAt = new Date(Date.now() - 60_000).toISOString();
    const learners: { licenseId: string; learnerId: string }[] = [];
    const add = async (licenseId: string, seats: number) => {
      await licenses.create({ id: licenseId, courseId, courseTitle: 'Bread', creatorId: 'creator-1', leaderId: 'leader-1', leaderEmail: 'lead@example.com', seatsTotal: seats, seatsUsed: 0, expiresAt, status: 'active', source: 'granted', orderId: null, createdAt: expiresAt });
      await inParallel(Array.from({ length: seats }, (_, i) => i), 10, async (i) => {
        const learnerId = `${licenseId}-l${i}`;
        await licenses.assign({ licenseId, email: `${learnerId}@example.com`, learnerId, status: 'active', assignedAt: expiresAt });
        await enrollments.enroll({ courseId, learnerId, creatorId: 'creator-1', learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: expiresAt, courseTitle: 'Bread', enrolledAt: expiresAt, licenseId });
        learners.push({ licenseId, learnerId });
      });
    };
    const big = unique('lic-big');
    const small = [unique('lic-a'), unique('lic-b'), unique('lic-c')];
    await add(big, 450);
    for (const id of small) await add(id, 4);

    const run = await runSliced('license-expiry', expiryWork, { itemsPerSlice: 40, kill: { seq: 3, afterChecks: 20, lanes: (lane) => lane.endsWith(big) }, lanesAtOnce: maxConcurrencyOf('license-expiry') });

    expect(run.kills).toBe(1);
    expect([...run.lanes]).toContain(`main.${big}`);
    expect(run.slices).toBeGreaterThan(12);
    for (const id of [big, ...small]) expect((await licenses.get(id))?.status).toBe('ended');
    const left = await Promise.all(learners.map(({ learnerId }) => enrollments.get(courseId, learnerId)));
    expect(left.filter((e) => e?.status !== 'removed')).toEqual([]);
  }, 120_000);
});

describe('certificate-issuer in slices', () => {
  it('issues 100 due certificates, several at once, each once with its one email, a killed slice included', async () => {
    const creator = await accountWithRole('creator', 'size-cert-creator');
    const courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Size drills', description: 'At any size.' } })).body.id as string;
    const lessonId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'One', kind: 'text', content: 'Done.' } })).body.id as string;
    useLocalCloudEnv();
    const enrollments = dynamoEnrollments();
    const at = new Date().toISOString();
    const learners = Array.from({ length: 100 }, (_, i) => ({ learnerId: unique(`cert-learner-${i}`), email: uniqueEmail(`size-cert-${i}`) }));
    await inParallel(learners, 10, async ({ learnerId, email }) => {
      await enrollments.enroll({ courseId, learnerId, creatorId: creator.id, learnerEmail: email, learnerJoinedAt: at, courseTitle: 'Size drills', enrolledAt: at });
      expect(await enrollments.completeLesson({ courseId, learnerId, creatorId: creator.id, lessonId, seenCount: 0, progress: 100, at, day: at.slice(0, 10), completedAt: at })).toBe('completed');
    });

    const run = await runSliced('certificate-issuer', issueWithoutPace, { itemsPerSlice: 12, kill: { seq: 2, afterChecks: 6 } });

    expect(run.kills).toBe(1);
    expect(run.slices).toBeGreaterThan(6);
    const certificates = dynamoCertificates();
    const held = await Promise.all(learners.map(async ({ learnerId }) => (await certificates.listByLearner(learnerId)).filter((c) => c.courseId === courseId).length));
    expect(held).toEqual(learners.map(() => 1));
    const emailed = (await mailsToEach(learners.map(({ email }) => email))).map((mails) => mails.filter((m) => m.subject === 'Your certificate from Course Platform').length);
    expect(emailed).toEqual(learners.map(() => 1));
  }, 180_000);
});

describe('mail-sender in slices', () => {
  it('sends 200 queued emails (their writers died) each once, several at once, a killed slice included', async () => {
    const dueAt = new Date(Date.now() - 60_000).toISOString();
    const mails = Array.from({ length: 200 }, (_, i) => ({ id: unique(`mail-${i}`), to: uniqueEmail(`size-mail-${i}`), subject: 'Your purchase on Course Platform', text: 'Thanks.', html: '<p>Thanks.</p>', queuedAt: dueAt, dueAt, tries: 1 }));
    await batchWrite(mails.map((mail) => ({ PutRequest: { Item: mailQueuePut(mail).Put.Item } })));

    const run = await runSliced('mail-sender', mailSenderWithoutPace, { itemsPerSlice: 30, kill: { seq: 2, afterChecks: 12 } });

    expect(run.kills).toBe(1);
    expect(run.slices).toBeGreaterThan(6);
    const received = (await mailsToEach(mails.map((mail) => mail.to))).map((got) => got.length);
    expect(received).toEqual(mails.map(() => 1));
    const left = (await items('MAILQUEUE', '2')).filter((item) => mails.some((m) => m.id === item['id']));
    expect(left).toEqual([]);
  }, 180_000);
});

describe('leader-weekly-report in slices', () => {
  it('sends 300 leaders their weekly email once each, a lane per page of leaders, a killed lane slice included', async () => {
    const courseId = unique('weekly-course');
    await batchWrite([{ PutRequest: { Item: { ...courseKeys.course(courseId), type: 'Course', id: courseId, enrolledCount: 0 } } }]);
    const users = dynamoUsers();
    const licenses = dynamoLicenses();
    const enrollments = dynamoEnrollments();
    const at = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const leaders = Array.from({ length: 300 }, (_, i) => ({ id: unique(`weekly-leader-${i}`), email: uniqueEmail(`weekly-leader-${i}`) }));
    await inParallel(leaders, 10, async (leader) => {
      await users.createUser({ id: leader.id, email: leader.email, role: 'leader', createdAt: at });
      const licenseId = `lic-${leader.id}`;
      await licenses.create({ id: licenseId, courseId, courseTitle: 'Weekly', creatorId: 'creator-1', leaderId: leader.id, leaderEmail: leader.email, seatsTotal: 1, seatsUsed: 0, expiresAt: null, status: 'active', source: 'granted', orderId: null, createdAt: at });
      const learnerId = `member-${leader.id}`;
      await licenses.assign({ licenseId, email: `${learnerId}@example.com`, learnerId, status: 'active', assignedAt: at });
      await enrollments.enroll({ courseId, learnerId, creatorId: 'creator-1', learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: at, courseTitle: 'Weekly', enrolledAt: at, licenseId });
    });
    // The pace under SES's rate is the unit tests' (its sleeps skipped here); its lanes side by side, as the queue runs them.
    const work = (remainingMs: () => number) => sendWeeklyReports({ ...weeklyReportDeps(remainingMs), sleep: noSleep });

    const run = await runSliced('leader-weekly-report', work, { itemsPerSlice: 60, kill: { seq: 1, afterChecks: 30, lanes: (lane) => lane === 'main.p1' }, lanesAtOnce: maxConcurrencyOf('leader-weekly-report') });

    expect(run.kills).toBe(1);
    expect(run.lanes.size).toBeGreaterThanOrEqual(4);
    const received = (await mailsToEach(leaders.map((leader) => leader.email))).map((mails) => mails.filter((m) => m.subject.startsWith('Your team this week')).length);
    expect(received).toEqual(leaders.map(() => 1));
  }, 300_000);
});

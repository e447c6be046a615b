import { afterEach, describe, expect, it } from 'vitest';
import { MAIL_HOLD_MS } from '#core/mail/mail-queue.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { mailsTo } from '../mail-support.ts';
import { accountWithRole, api, eventually, useLocalCloudEnv } from '../support.ts';
import { expectCleanFailures, faults, injectedSince, post, report, untilSettled } from './support.ts';

/**
 * Issue 29 point 4: the admin answers creators' support requests while SES is down and DynamoDB fails now and then,
 * retrying each reply under its Idempotency-Key until it settles. Each request gets its reply once; each reply's email
 * is queued with it and, once SES is back, the sender job sends it exactly once.
 */
afterEach(() => faults.recover());

const CREATORS = 4;
const SUBJECT = 'Course Platform support answered your request';

describe('support replies while SES is down and DynamoDB fails', () => {
  it('are written once each, and each email is sent exactly once when SES is back', async () => {
    const [admin, ...creators] = await Promise.all([accountWithRole('admin', 'fault-support-admin'), ...Array.from({ length: CREATORS }, (_, i) => accountWithRole('creator', `fault-support-${i}`))]);
    const requests: string[] = [];
    for (const creator of creators) {
      const asked = await api('POST', '/api/support/requests', { token: creator.token, body: { subject: 'Help', body: 'Please.' } });
      expect(asked.status).toBe(201);
      requests.push(asked.body.id as string);
    }
    useLocalCloudEnv();

    const before = await faults.state();
    await faults.set('ses', { down: true });
    await faults.set('dynamodb', { error: 0.15 });
    const settled = await Promise.all(
      requests.map((id, i) =>
        untilSettled(post(`/api/admin/support/${id}/replies`, { body: `Answer ${i}`, close: true }, { authorization: `Bearer ${admin.token}`, 'idempotency-key': `fault-support-${id}` })),
      ),
    );
    for (const s of settled) expect(s.status, JSON.stringify(s.body)).toBe(201);
    const injected = await injectedSince(before);
    expectCleanFailures(settled, 10_000);
    await faults.clear();

    // Each thread holds its one reply, closed; nothing was emailed while SES was down.
    for (const [i, creator] of creators.entries()) {
      const mine = (await api('GET', '/api/support/requests', { token: creator.token })).body.items as { status: string; replies: { body: string }[] }[];
      expect(mine).toEqual([expect.objectContaining({ status: 'closed', replies: [expect.objectContaining({ body: `Answer ${i}` })] })]);
    }
    const count = () => Promise.all(creators.map(async (creator) => (await mailsTo(creator.email)).filter((m) => m.subject === SUBJECT).length));
    const sendAndCount = async () => {
      await runToEnd('mail-sender', mailSenderWork);
      return count();
    };
    await eventually(sendAndCount, (counts) => counts.every((n) => n >= 1), MAIL_HOLD_MS + 15_000);
    const got = await sendAndCount();
    report({ path: `support replies (${CREATORS} emails)`, injected, database: 'up', lost: got.filter((n) => n === 0).length, doubled: got.reduce((sum, n) => sum + Math.max(0, n - 1), 0), recoveryMs: null });
    expect(got, 'each reply emailed once').toEqual(creators.map(() => 1));
  }, 180_000);
});

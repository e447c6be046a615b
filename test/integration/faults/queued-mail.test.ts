import { afterEach, describe, expect, it } from 'vitest';
import { MAIL_HOLD_MS } from '#core/mail/mail-queue.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { mailsTo } from '../mail-support.ts';
import { accountWithRole, api, eventually, useLocalCloudEnv } from '../support.ts';
import { checkoutAndPay, faults, injectedSince, post, report, sellingCreator } from './support.ts';

/**
 * Issue 16: emails nobody waits for (a purchase receipt, a course certificate, an affiliate's link) while SES is down.
 * What they announce happens all the same (the order is paid, the learner enrolled); the emails are queued, and once
 * SES is back the sender job sends each exactly once, however often it runs.
 */
afterEach(() => faults.recover());

const BUYERS = 4;

describe('emails nobody waits for while SES is down', () => {
  it('are queued, and sent exactly once when SES is back', async () => {
    const { courseId, origin } = await sellingCreator('fault-queued-mail-creator', 1500);
    // Learners already: a purchase queues them a receipt (a new buyer gets an invitation, from the queue too).
    const learners = await Promise.all(Array.from({ length: BUYERS }, (_, i) => accountWithRole('learner', `fault-receipt-${i}`)));
    useLocalCloudEnv();

    const before = await faults.state();
    await faults.set('ses', { down: true });
    for (const [i, learner] of learners.entries()) {
      await checkoutAndPay(
        post(`/api/public/courses/${courseId}/checkout`, { email: learner.email, successUrl: `${origin}/c/${courseId}?purchase=success`, cancelUrl: `${origin}/c/${courseId}` }, { 'idempotency-key': `fault-receipt-${courseId}-${i}` }),
      );
    }
    // Paid and enrolled, with SES down all along.
    for (const learner of learners) {
      const courses = await eventually(
        async () => (await api('GET', '/api/learner/courses', { token: learner.token })).body.items as { courseId: string }[],
        (items) => items.some((c) => c.courseId === courseId),
      );
      expect(courses.filter((c) => c.courseId === courseId), `${learner.email} enrolled`).toHaveLength(1);
    }
    const receipts = async (email: string) => (await mailsTo(email)).filter((m) => m.subject === 'Your purchase on Course Platform');
    for (const learner of learners) expect(await receipts(learner.email), 'nothing went while SES was down').toEqual([]);
    const injected = await injectedSince(before);

    await faults.clear();
    // The sender job, as its schedule runs it, until every receipt went. The local cloud's own every-minute runs may
    // get there first, and a run or a webhook delivery that met SES down may still be putting an email back as due: at
    // worst an email is held MAIL_HOLD_MS by a try under way.
    const count = () => Promise.all(learners.map(async (learner) => (await receipts(learner.email)).length));
    const sendAndCount = async () => {
      await runToEnd('mail-sender', mailSenderWork);
      return count();
    };
    await eventually(sendAndCount, (counts) => counts.every((n) => n >= 1), MAIL_HOLD_MS + 15_000);
    // And once more: nothing is due any more, nothing goes twice.
    const got = await sendAndCount();
    report({ path: `emails nobody waits for (${BUYERS} receipts)`, injected, database: 'up', lost: got.filter((n) => n === 0).length, doubled: got.reduce((sum, n) => sum + Math.max(0, n - 1), 0), recoveryMs: null });
    expect(got, 'each receipt once').toEqual(learners.map(() => 1));
    // Issue 28: the webhook no longer tries a receipt itself; the mail sender it starts at once tried and was refused.
    expect(injected['ses']!.error, 'SES refused the sender while down').toBeGreaterThanOrEqual(1);
  }, 180_000);
});

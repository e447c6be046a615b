import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { WORK_HOLD_MS } from '#core/mail/mail-queue.ts';
import { orderKeys } from '#data/orders.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { mailsToEach } from '../mail-support.ts';
import { api, counted, dynamo, eventually, outputs, uniqueEmail, useLocalCloudEnv } from '../support.ts';
import { checkoutAndPay, expectCleanFailures, faults, injectedSince, post, recoveryMs, redeliverEvents, report, sellingCreator, signInFromInvitation, sleep } from './support.ts';

/**
 * Issue 16: 12 visitors buy a course on its public page while Stripe fails 30% of the platform's calls and answers 10%
 * too late, the database fails calls and is killed mid-run, and SES refuses sends. Each checkout's caller retries with
 * its Idempotency-Key; each buyer pays on the hosted page; the Connect webhooks fail and are retried by the stand-in,
 * then every event is delivered again, as Stripe keeps retrying for days. Issue 28: the webhook pays the order and
 * queues the new buyer's account, which the sender job makes, invites and enrols; some database writes are answered
 * too late (the webhook dies after its transaction and before its answer: Stripe delivers again) and Cognito fails
 * or answers too late under the sender (the account creation dies halfway: the next try takes it over). After
 * recovery: one Stripe session per checkout, one paid order and one enrolment per buyer, the sales counted once
 * each, and every buyer can sign in.
 */
afterEach(() => faults.recover());

const BUYERS = 12;
const PRICE = 1900;

interface Sale {
  buyerEmail: string | null;
  courseId: string;
  status: string;
}

describe('course orders while Stripe, SES and the database fail', () => {
  it('make one order, one enrolment and one counted sale per buyer, whatever fails and however often events arrive', async () => {
    const { creator, courseId, accountId, origin } = await sellingCreator('fault-orders-creator', PRICE);

    const before = await faults.state();
    await faults.set('stripe', { error: 0.3, slow: 0.1, slowMs: 10_000 });
    await faults.set('dynamodb', { error: 0.15, slow: 0.03 });
    await faults.set('ses', { error: 0.3 });
    await faults.set('cognito', { error: 0.2, slow: 0.05, slowMs: 12_000 });
    const buyers = Array.from({ length: BUYERS }, (_, i) => uniqueEmail(`fault-buyer-${i}`));
    const buy = async (email: string, i: number) => {
      await sleep(i * 200);
      return checkoutAndPay(
        post(`/api/public/courses/${courseId}/checkout`, { email, successUrl: `${origin}/c/${courseId}?purchase=success`, cancelUrl: `${origin}/c/${courseId}` }, { 'idempotency-key': `fault-order-${creator.id}-${i}` }),
      );
    };
    const running = Promise.all(buyers.map(buy));
    await sleep(2_500);
    const returnedAt = await faults.outage('kill', 300);
    const settled = await running;
    const injected = await injectedSince(before);
    await faults.clear();
    expectCleanFailures(settled, 30_000);

    await redeliverEvents(accountId);
    // The buyers' accounts, invitations and enrolments come from the mail queue: the mail sender job (started by each
    // payment, and by its schedule) until each paid order names its learner and each buyer was invited; a try that
    // died holds its work WORK_HOLD_MS at worst.
    useLocalCloudEnv();
    const done = async () => {
      const paid = ((await api('GET', '/api/sales', { token: creator.token })).body.items as (Sale & { id: string })[]).filter((s) => s.courseId === courseId && s.status === 'paid');
      const orders = await Promise.all(paid.map(async (s) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: orderKeys.order(s.id), ConsistentRead: true }))).Item));
      const invited = (await mailsToEach(buyers)).map((mails) => mails.some((m) => /Temporary password/.test(m.body.text ?? '')));
      return orders.filter((o) => o?.['learnerId']).length === BUYERS && invited.every(Boolean);
    };
    await eventually(
      async () => {
        await runToEnd('mail-sender', mailSenderWork);
        return done();
      },
      Boolean,
      WORK_HOLD_MS + 30_000,
    );

    const sales = (await api('GET', '/api/sales', { token: creator.token })).body.items as Sale[];
    const paidSales = sales.filter((s) => s.courseId === courseId && s.status === 'paid');
    expect(paidSales.map((s) => s.buyerEmail).sort(), 'one paid order per buyer').toEqual([...buyers].sort());
    // The sales are counted by the stream aggregator a batch window after each payment (decision 0040): read once it
    // has counted every write made before, so a sale missed or counted twice shows.
    const analytics = (await counted(() => api('GET', '/api/creator/analytics?days=30', { token: creator.token }))).body as { sales: number; revenue: number };
    expect(analytics, 'each sale counted once').toMatchObject({ sales: BUYERS, revenue: BUYERS * PRICE });
    const state = (await (await fetch(`${outputs().StripeApiUrl}/_stand-in/state`)).json()) as { connected: Record<string, { checkoutSessions: Record<string, { customer_email: string | null }> }> };
    const sessions = Object.values(state.connected[accountId]!.checkoutSessions).filter((s) => buyers.includes(s.customer_email ?? ''));
    const paidPer = buyers.map((email) => paidSales.filter((s) => s.buyerEmail === email).length);
    expect(sessions, 'one Stripe session per checkout, however often it was asked for').toHaveLength(BUYERS);
    const enrolledPer: number[] = [];
    for (const email of buyers) {
      const token = await signInFromInvitation(email);
      // The invitation goes before the profile and the enrolment are written (create-account.ts): a moment later.
      const courses = await eventually(
        async () => ((await api('GET', '/api/learner/courses', { token })).body.items ?? []) as { courseId: string }[],
        (items) => items.some((c) => c.courseId === courseId),
      );
      enrolledPer.push(courses.filter((c) => c.courseId === courseId).length);
    }
    report({
      path: `course orders (${BUYERS} buyers), their webhooks and the buyers' queued accounts`,
      injected,
      database: 'killed and restarted',
      lost: paidPer.filter((n) => n === 0).length + Math.max(0, BUYERS - analytics.sales) + enrolledPer.filter((n) => n === 0).length,
      doubled: paidPer.reduce((sum, n) => sum + Math.max(0, n - 1), 0) + Math.max(0, analytics.sales - BUYERS) + Math.max(0, sessions.length - BUYERS) + enrolledPer.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
      recoveryMs: recoveryMs(settled, returnedAt),
    });
    expect(enrolledPer, 'each buyer enrolled once').toEqual(buyers.map(() => 1));
    expect(injected['cognito']!.error + injected['cognito']!.slow, 'the account creations met Cognito failing').toBeGreaterThan(0);
  }, 400_000);
});

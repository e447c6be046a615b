import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { orderKeys } from '#data/orders.ts';
import { api, dynamo, outputs, uniqueEmail } from '../support.ts';
import { checkoutAndPay, expectCleanFailures, faults, injectedSince, post, recoveryMs, redeliverEvents, report, sellingCreator, sleep } from './support.ts';

/**
 * Issue 27 point 6: buyers each pay twice at once with the same one-per-buyer coupon (two checkouts of the course,
 * paid together on the hosted page) while Stripe fails 30% of the platform's calls (the automatic refunds among them)
 * and answers 10% too late, the database fails calls and is killed mid-run, and SES refuses sends. The Connect webhooks
 * fail and are retried by the stand-in, then every event is delivered again. After recovery: per buyer one paid order
 * with the coupon and one refunded (refunded once at Stripe, the whole amount), and the coupon counted once per buyer.
 */
afterEach(() => faults.recover());

const BUYERS = 6;
const PRICE = 2000;
const PAID = 1500; // with 25% off

interface Sale {
  id: string;
  buyerEmail: string | null;
  courseId: string;
  status: string;
}

describe('one coupon use per buyer while Stripe, SES and the database fail', () => {
  it('pays one of each buyer’s two concurrent payments with the code and refunds the other once, whatever fails', async () => {
    const { creator, courseId, accountId, origin } = await sellingCreator('fault-coupon-creator', PRICE);
    expect((await api('POST', '/api/coupons', { token: creator.token, body: { code: 'ONCE25', kind: 'percent', value: 25, courseIds: null } })).status).toBe(201);

    const before = await faults.state();
    await faults.set('stripe', { error: 0.3, slow: 0.1, slowMs: 10_000 });
    await faults.set('dynamodb', { error: 0.15 });
    await faults.set('ses', { error: 0.3 });
    const buyers = Array.from({ length: BUYERS }, (_, i) => uniqueEmail(`fault-coupon-${i}`));
    const buy = (email: string, i: number, n: number) =>
      checkoutAndPay(
        post(
          `/api/public/courses/${courseId}/checkout`,
          { email, couponCode: 'ONCE25', successUrl: `${origin}/c/${courseId}?purchase=success`, cancelUrl: `${origin}/c/${courseId}` },
          { 'idempotency-key': `fault-coupon-${creator.id}-${i}-${n}` },
        ),
      );
    const running = Promise.all(buyers.map(async (email, i) => (await sleep(i * 300), Promise.all([buy(email, i, 1), buy(email, i, 2)]))));
    await sleep(2_500);
    const returnedAt = await faults.outage('kill', 300);
    const settled = (await running).flat();
    const injected = await injectedSince(before);
    await faults.clear();
    expectCleanFailures(settled, 30_000);

    await redeliverEvents(accountId);

    const sales = ((await api('GET', '/api/sales', { token: creator.token })).body.items as Sale[]).filter((s) => s.courseId === courseId);
    const state = (await (await fetch(`${outputs().StripeApiUrl}/_stand-in/state`)).json()) as {
      connected: Record<string, { refunds: Record<string, { payment_intent: string; amount: number }> }>;
    };
    const refunds = Object.values(state.connected[accountId]!.refunds);
    const intentOf = async (orderId: string) =>
      (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: orderKeys.order(orderId), ConsistentRead: true }))).Item?.['paymentIntentId'] as string;
    const perBuyer = await Promise.all(
      buyers.map(async (email) => {
        const mine = sales.filter((s) => s.buyerEmail === email);
        const refunded = mine.filter((s) => s.status === 'refunded');
        const refundsAtStripe = await Promise.all(
          refunded.map(async (s) => {
            const intent = await intentOf(s.id);
            return refunds.filter((r) => r.payment_intent === intent);
          }),
        );
        return { paid: mine.filter((s) => s.status === 'paid').length, refunded: refunded.length, refundsAtStripe: refundsAtStripe.map((r) => r.map((x) => x.amount)) };
      }),
    );
    const coupon = ((await api('GET', '/api/coupons', { token: creator.token })).body.items as { code: string; redeemed: number }[]).find((c) => c.code === 'ONCE25');
    report({
      path: `one coupon use per buyer (${BUYERS} buyers x 2 concurrent payments) and the automatic refunds`,
      injected,
      database: 'killed and restarted',
      lost: perBuyer.filter((b) => b.paid === 0 || b.refunded === 0).length + perBuyer.flatMap((b) => b.refundsAtStripe).filter((r) => r.length === 0).length,
      doubled: perBuyer.filter((b) => b.paid > 1).length + perBuyer.flatMap((b) => b.refundsAtStripe).filter((r) => r.length > 1).length + Math.max(0, (coupon?.redeemed ?? 0) - BUYERS),
      recoveryMs: recoveryMs(settled, returnedAt),
    });
    expect(perBuyer, 'per buyer: one payment kept, the other refunded once, in full').toEqual(Array(BUYERS).fill({ paid: 1, refunded: 1, refundsAtStripe: [[PAID]] }));
    expect(coupon?.redeemed, 'the coupon counted once per buyer').toBe(BUYERS);
  }, 300_000);
});

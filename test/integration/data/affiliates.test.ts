import { beforeAll, describe, expect, it } from 'vitest';
import type { Order, StoredAffiliate } from '#core/ports.ts';
import { affiliateKeys, dynamoAffiliates } from '#data/affiliates.ts';
import { dynamoOrders } from '#data/orders.ts';
import { mailQueueKey } from '#data/mail-queue.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const AT = '2026-11-25T10:00:00.000Z';
const affiliate = (creatorId: string, over: Partial<StoredAffiliate> = {}): StoredAffiliate => ({
  id: unique('aff'),
  creatorId,
  code: unique('C').replace(/[^A-Z0-9]/gi, '').toUpperCase().slice(-12),
  name: 'Ali',
  email: `${unique('ali')}@example.com`,
  commissionPercent: 25,
  cookieDays: 30,
  holdDays: 0,
  clicks: 0,
  sales: 0,
  pending: 0,
  approved: 0,
  paid: 0,
  clawedBack: 0,
  createdAt: AT,
  ...over,
});

/** A paid order of the creator's, credited to the affiliate with a commission of `amount`, through the orders adapter. */
const paidOrder = async (creatorId: string, affiliateId: string, amount: number, approveAt = AT): Promise<Order> => {
  const orders = dynamoOrders();
  const order: Order = {
    id: unique('order'),
    courseId: 'course-1',
    courseTitle: 'Knife skills',
    creatorId,
    accountId: 'acct_1',
    status: 'pending',
    buyerEmail: 'buyer@example.com',
    price: 4000,
    discount: 0,
    amount: 4000,
    currency: 'gbp',
    couponCode: null,
    affiliateId,
    seats: null,
    checkoutSessionId: null,
    checkoutUrl: null,
    paymentIntentId: null,
    learnerId: null,
    createdAt: AT,
    paidAt: null,
  };
  await orders.create(order);
  const outcome = await orders.markPaid({
    event: { id: unique('evt'), type: 'checkout.session.completed' },
    orderId: order.id,
    paid: { amount: 4000, discount: 0, buyerEmail: 'buyer@example.com', learnerId: 'l1', paymentIntentId: unique('pi'), paidAt: AT },
    referral: { affiliateId, commission: { affiliateId, amount, approveAt } },
  });
  expect(outcome).toBe('applied');
  return (await orders.get(order.id))!;
};

/** The affiliate's email, due far ahead (no sender run of the local cloud takes it). */
const linkEmail = (id: string) => ({ id: `link-${id}`, to: 'ali@example.com', subject: 'Your link', text: 't', html: 'h', queuedAt: AT, dueAt: '2999-01-01T00:00:00.000Z', tries: 1 });

describe('dynamoAffiliates', () => {
  it('creates an affiliate with a unique code and one per email, lists and reads it, and keeps clicks', async () => {
    const repo = dynamoAffiliates();
    const creatorId = unique('creator');
    const ali = affiliate(creatorId);
    expect(await repo.create(ali, linkEmail(ali.id))).toBe('created');
    expect(await rawItem(mailQueueKey(linkEmail(ali.id))), 'its email, written with it').toMatchObject({ to: 'ali@example.com' });
    const [again, other] = [affiliate(creatorId), affiliate(creatorId)];
    expect(await repo.create({ ...again, code: ali.code }, linkEmail(again.id))).toBe('code-taken');
    expect(await repo.create({ ...other, email: ali.email }, linkEmail(other.id))).toBe('email-taken');
    expect(await rawItem(mailQueueKey(linkEmail(again.id))), 'no email for an affiliate not made').toBeUndefined();
    expect((await repo.list(creatorId)).map((a) => a.id)).toEqual([ali.id]);
    expect(await repo.code(ali.code)).toEqual({ code: ali.code, affiliateId: ali.id, creatorId, cookieDays: 30 });
    expect(await repo.get(unique('other'), ali.id)).toBeUndefined();

    const clickId = unique('click');
    await repo.recordClick({ clickId, code: ali.code, affiliateId: ali.id, creatorId, at: AT, expiresAt: '2026-12-25T10:00:00.000Z' });
    expect(await repo.click(clickId)).toEqual({ clickId, code: ali.code, affiliateId: ali.id, creatorId, at: AT, expiresAt: '2026-12-25T10:00:00.000Z' });
    expect((await rawItem(affiliateKeys.click(clickId)))?.['expiresAt']).toBe(Math.ceil(Date.parse('2026-12-25T10:00:00.000Z') / 1000));
    expect((await repo.get(creatorId, ali.id))?.clicks).toBe(1);
  });

  it('moves a commission pending -> approved -> paid once each, with the figures, and a payout that was retried', async () => {
    const repo = dynamoAffiliates();
    const creatorId = unique('creator');
    const ali = affiliate(creatorId);
    await repo.create(ali, linkEmail(ali.id));
    const [first, second] = [await paidOrder(creatorId, ali.id, 1000), await paidOrder(creatorId, ali.id, 500, '2099-01-01T00:00:00.000Z')];
    expect((await repo.get(creatorId, ali.id))).toMatchObject({ sales: 2, pending: 1500 });
    const due = (await repo.dueForApproval('2026-11-26T00:00:00.000Z', 1000)).items.filter((c) => c.affiliateId === ali.id);
    expect(due.map((c) => c.orderId)).toEqual([first.id]);
    expect(await repo.approve(due[0]!, '2026-11-26T00:00:00.000Z')).toBe(true);
    expect(await repo.approve(due[0]!, '2026-11-26T00:00:00.000Z')).toBe(false);
    const early = (await repo.commission(ali.id, second.id))!;
    expect(await repo.approve(early, '2026-11-26T00:00:00.000Z')).toBe(false);

    const approved = await repo.approved(ali.id);
    expect(approved.map((c) => c.orderId)).toEqual([first.id]);
    // A commission that is not approved in the batch: the whole batch waits, and it is named.
    expect(await repo.pay({ affiliateId: ali.id, creatorId, payoutId: 'po-1', commissions: [...approved, early], at: AT })).toEqual({ paid: false, stale: [second.id] });
    expect(await repo.pay({ affiliateId: ali.id, creatorId, payoutId: 'po-1', commissions: approved, at: AT })).toEqual({ paid: true, stale: [] });
    await repo.completePayout(ali.id, 'po-1');
    expect(await repo.payout(ali.id, 'po-1')).toMatchObject({ amount: 1000, orderIds: [first.id], complete: true });
    expect(await repo.get(creatorId, ali.id)).toMatchObject({ pending: 500, approved: 0, paid: 1000 });
    expect((await repo.commissions(ali.id)).map((c) => [c.orderId, c.status])).toEqual(expect.arrayContaining([[first.id, 'paid'], [second.id, 'pending']]));
  });

  it("voids an unpaid commission with its order's refund, and records a clawback on a paid one", async () => {
    const repo = dynamoAffiliates();
    const orders = dynamoOrders();
    const creatorId = unique('creator');
    const ali = affiliate(creatorId);
    await repo.create(ali, linkEmail(ali.id));
    const [unpaid, paid] = [await paidOrder(creatorId, ali.id, 1000), await paidOrder(creatorId, ali.id, 700)];
    const toPay = (await repo.commission(ali.id, paid.id))!;
    await repo.approve(toPay, AT);
    await repo.pay({ affiliateId: ali.id, creatorId, payoutId: 'po-x', commissions: [{ ...toPay, status: 'approved' }], at: AT });

    expect(await orders.markReversed({ orderId: unpaid.id, to: 'refunded', at: AT })).toBe('applied');
    expect(await orders.markReversed({ orderId: paid.id, to: 'disputed', at: AT })).toBe('applied');
    expect(await repo.commission(ali.id, unpaid.id)).toMatchObject({ status: 'void' });
    expect(await repo.commission(ali.id, paid.id)).toMatchObject({ status: 'paid', clawback: true });
    expect(await repo.get(creatorId, ali.id)).toMatchObject({ pending: 0, paid: 700, clawedBack: 700 });
  });
});

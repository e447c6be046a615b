import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '#core/ports.ts';
import type { StoredCoupon } from '#core/sales/ports.ts';
import { backfillCouponIndex, couponKeys, dynamoCoupons } from '#data/coupons.ts';
import { dynamoOrders } from '#data/orders.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const coupon = (creatorId: string, over: Partial<StoredCoupon> = {}): StoredCoupon => ({
  creatorId,
  code: 'SPRING20',
  kind: 'percent',
  value: 20,
  affiliateId: null,
  courseIds: null,
  maxRedemptions: 5,
  expiresAt: null,
  redeemed: 0,
  active: true,
  createdAt: '2026-11-25T10:00:00.000Z',
  accountId: 'acct_1',
  stripeCouponId: 'coupon_1',
  promotionCodeId: 'promo_1',
  ...over,
});

describe('coupons (DynamoDB Local)', () => {
  it('keeps a creator’s coupons by code, newest first, once each, changed and deleted while they exist', async () => {
    const coupons = dynamoCoupons();
    const creatorId = unique('coupons');
    expect(await coupons.create(coupon(creatorId))).toBe(true);
    expect(await coupons.create(coupon(creatorId))).toBe(false);
    await coupons.create(coupon(creatorId, { code: 'NEWER', createdAt: '2026-11-25T11:00:00.000Z' }));
    expect((await coupons.list(creatorId)).map((c) => c.code)).toEqual(['NEWER', 'SPRING20']);
    expect(await coupons.update(creatorId, 'SPRING20', { active: false, maxRedemptions: null })).toMatchObject({ active: false, maxRedemptions: null });
    expect(await coupons.update(creatorId, 'GONE', { active: false })).toBeUndefined();
    expect(await coupons.update(creatorId, 'SPRING20', {})).toMatchObject({ code: 'SPRING20' });
    expect(await coupons.delete(creatorId, 'NEWER')).toBe(true);
    expect(await coupons.delete(creatorId, 'NEWER')).toBe(false);
    expect(await coupons.get(creatorId, 'NEWER')).toBeUndefined();
  });

  it('pages the coupons newest first from their index; one made before the index is listed after the backfill, once', async () => {
    const coupons = dynamoCoupons();
    const creatorId = unique('coupon-pages');
    for (const [i, code] of ['A1', 'B2', 'C3'].entries()) await coupons.create(coupon(creatorId, { code, createdAt: `2026-11-2${i}T10:00:00.000Z` }));
    const old = coupon(creatorId, { code: 'OLD', createdAt: '2026-11-19T10:00:00.000Z' });
    await putRaw({ ...couponKeys.coupon(creatorId, 'OLD'), type: 'Coupon', ...old });
    const read = async () => {
      const codes: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await coupons.page(creatorId, { cursor, limit: 2 });
        codes.push(...page.items.map((c) => c.code));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return codes;
    };
    expect(await read()).toEqual(['C3', 'B2', 'A1']);
    expect(await backfillCouponIndex()).toBeGreaterThanOrEqual(1);
    expect(await read()).toEqual(['C3', 'B2', 'A1', 'OLD']);
    expect(await backfillCouponIndex()).toBe(0);
    await expect(coupons.page(unique('coupon-pages'), { cursor: (await coupons.page(creatorId, { limit: 1 })).nextCursor!, limit: 1 })).rejects.toThrow(/cursor is not valid/);
  });

  it("counts a paid order's coupon and its buyer in the payment's transaction; a coupon deleted meanwhile is not counted", async () => {
    const coupons = dynamoCoupons();
    const orders = dynamoOrders();
    const creatorId = unique('coupon-orders');
    await coupons.create(coupon(creatorId));
    const order = (code: string): Order => pendingOrder({ id: unique('order'), courseId: 'c1', creatorId, discount: 580, amount: 2320, couponCode: code });
    const pay = async (o: Order) => {
      await orders.create(o);
      const paid = { amount: 2320, discount: 580, buyerEmail: 'Ann@Example.com', learnerId: 'l1', paymentIntentId: null, paidAt: '2026-11-25T10:05:00.000Z' };
      return orders.markPaid({ event: { id: unique('evt'), type: 'checkout.session.completed' }, orderId: o.id, paid });
    };
    expect(await pay(order('SPRING20'))).toBe('applied');
    expect((await coupons.get(creatorId, 'SPRING20'))?.redeemed).toBe(1);
    expect(await coupons.usedBy(creatorId, 'SPRING20', 'ann@example.com')).toBe(true);
    expect(await coupons.usedBy(creatorId, 'SPRING20', 'bob@example.com')).toBe(false);
    expect(await pay(order('DELETED'))).toBe('applied');
    expect(await rawItem(couponKeys.coupon(creatorId, 'DELETED'))).toBeUndefined();

    // One use per buyer: another order of Ann's with the code is not paid (nothing written, the event not recorded).
    const first = (await coupons.useOf(creatorId, 'SPRING20', 'ann@example.com'))!;
    expect(first).toMatchObject({ courseId: 'c1', orderId: expect.any(String) });
    const second = order('SPRING20');
    expect(await pay(second)).toBe('coupon-used');
    expect((await orders.get(second.id))?.status).toBe('pending');
    expect((await coupons.get(creatorId, 'SPRING20'))?.redeemed).toBe(1);
    expect(await coupons.useOf(creatorId, 'SPRING20', 'ann@example.com')).toEqual(first);
  });

  it('redeems once for one buyer whatever the concurrency: of 10 orders paid at once with one code and email, one is paid', async () => {
    const coupons = dynamoCoupons();
    const orders = dynamoOrders();
    const creatorId = unique('coupon-race');
    await coupons.create(coupon(creatorId, { maxRedemptions: null }));
    const ids = Array.from({ length: 10 }, () => unique('order'));
    for (const id of ids) {
      await orders.create(pendingOrder({ id, courseId: 'c1', creatorId, buyerEmail: 'cat@example.com', discount: 580, amount: 2320, couponCode: 'SPRING20' }));
    }
    const outcomes = await Promise.all(
      ids.map((id) =>
        orders.markPaid({
          event: { id: unique('evt'), type: 'checkout.session.completed' },
          orderId: id,
          paid: { amount: 2320, discount: 580, buyerEmail: 'cat@example.com', learnerId: 'l1', paymentIntentId: null, paidAt: '2026-11-25T10:05:00.000Z' },
        }),
      ),
    );
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'coupon-used')).toHaveLength(9);
    expect((await coupons.get(creatorId, 'SPRING20'))?.redeemed).toBe(1);
    expect((await coupons.useOf(creatorId, 'SPRING20', 'cat@example.com'))?.orderId).toBe(ids[outcomes.indexOf('applied')]);
  });
});

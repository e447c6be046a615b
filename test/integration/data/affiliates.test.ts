import { beforeAll, describe, expect, it } from 'vitest';
import type { Order, StoredAffiliate } from '#core/ports.ts';
import { PAYOUT_BATCH } from '#core/affiliates/affiliates.ts';
import { affiliateKeys, backfillAffiliateEmailIndex, backfillAffiliateIndex, backfillCommissionIndex, backfillPayoutLines, dynamoAffiliates } from '#data/affiliates.ts';
import { dynamoOrders } from '#data/orders.ts';
import { mailQueueKey } from '#data/mail-queue.ts';
import { newAffiliate } from '#test/functions/fakes/affiliates.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';
import { queryAll } from '#data/table.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const AT = '2026-11-25T10:00:00.000Z';
const affiliate = (creatorId: string, over: Partial<StoredAffiliate> = {}): StoredAffiliate =>
  newAffiliate({
    id: unique('aff'),
    creatorId,
    code: unique('C').replace(/[^A-Z0-9]/gi, '').toUpperCase().slice(-12),
    email: `${unique('ali')}@example.com`,
    createdAt: AT,
    ...over,
  });

/** A paid order of the creator's, credited to the affiliate with a commission of `amount`, through the orders adapter. */
const paidOrder = async (creatorId: string, affiliateId: string, amount: number, approveAt = AT): Promise<Order> => {
  const orders = dynamoOrders();
  const order = pendingOrder({ id: unique('order'), creatorId, buyerEmail: 'buyer@example.com', price: 4000, amount: 4000, affiliateId, createdAt: AT });

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
    const po = unique('po');
    // A commission that is not approved in the batch: the whole batch waits, and it is named.
    expect(await repo.pay({ affiliateId: ali.id, creatorId, payoutId: po, commissions: [...approved, early], at: AT })).toEqual({ paid: false, stale: [second.id] });
    expect(await repo.pay({ affiliateId: ali.id, creatorId, payoutId: po, commissions: approved, at: AT })).toEqual({ paid: true, stale: [] });
    await repo.completePayout(ali.id, po);
    expect(await repo.payout(ali.id, po)).toMatchObject({ amount: 1000, lines: 1, complete: true });
    expect(await repo.payoutLines(po, { limit: 10 })).toEqual({ items: [{ orderId: first.id, amount: 1000, paidAt: AT }], nextCursor: null });
    expect(await rawItem(affiliateKeys.payoutLine(po, first.id))).toMatchObject({ type: 'PayoutLine', affiliateId: ali.id, amount: 1000, paidAt: AT });
    expect(await repo.get(creatorId, ali.id)).toMatchObject({ pending: 500, approved: 0, paid: 1000 });
    expect((await repo.commissions(ali.id, { limit: 50 })).items.map((c) => [c.orderId, c.status])).toEqual(expect.arrayContaining([[first.id, 'paid'], [second.id, 'pending']]));
  });

  it('pages the commissions newest first, every one once; earlier ones join the list through the backfill', async () => {
    const repo = dynamoAffiliates();
    const creatorId = unique('creator');
    const ali = affiliate(creatorId);
    expect(await repo.create(ali, linkEmail(ali.id))).toBe('created');
    const orders: Order[] = [];
    for (let i = 0; i < 5; i++) orders.push(await paidOrder(creatorId, ali.id, 100 + i));
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await repo.commissions(ali.id, { cursor, limit: 2 });
      pages.push(page.items.map((c) => c.orderId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    // Same createdAt here: newest first falls back to the order id, descending, as the index's sort key does.
    expect(pages.flat()).toEqual(orders.map((o) => o.id).sort().reverse());
    const first = await repo.commissions(ali.id, { limit: 2 });
    await expect(repo.commissions(unique('aff'), { cursor: first.nextCursor!, limit: 2 })).rejects.toThrow(/cursor is not valid/);

    // A commission stored before the paged list (no gsi2 keys) is missing from it until the backfill indexes it, once.
    const old = { ...(await repo.commission(ali.id, orders[0]!.id))!, orderId: unique('old-order'), createdAt: '2026-01-01T00:00:00.000Z' };
    await putRaw({ ...affiliateKeys.commission(ali.id, old.orderId), type: 'Commission', ...old });
    const all = async () => (await repo.commissions(ali.id, { limit: 100 })).items.map((c) => c.orderId);
    expect(await all()).not.toContain(old.orderId);
    expect(await backfillCommissionIndex()).toBeGreaterThanOrEqual(1);
    expect((await all()).at(-1)).toBe(old.orderId);
    expect(await backfillCommissionIndex()).toBe(0);
  });

  it('pages the affiliates newest first from their index; one made before the index is listed after the backfill, once', async () => {
    const repo = dynamoAffiliates();
    const creatorId = unique('creator');
    const made = [0, 1, 2].map((i) => affiliate(creatorId, { createdAt: `2026-11-2${i}T10:00:00.000Z` }));
    for (const a of made) expect(await repo.create(a, linkEmail(a.id))).toBe('created');
    const old = affiliate(creatorId, { createdAt: '2026-11-19T10:00:00.000Z' });
    await putRaw({ ...affiliateKeys.affiliate(creatorId, old.id), type: 'Affiliate', ...old });
    const read = async () => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await repo.page(creatorId, { cursor, limit: 2 });
        ids.push(...page.items.map((a) => a.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return ids;
    };
    expect(await read()).toEqual(made.map((a) => a.id).reverse());
    expect(await backfillAffiliateIndex()).toBeGreaterThanOrEqual(1);
    expect(await read()).toEqual([...made.map((a) => a.id).reverse(), old.id]);
    expect(await backfillAffiliateIndex()).toBe(0);
  });

  it("gives email claims from before the email index its keys, once: every creator's claim of the address is found", async () => {
    const email = `${unique('old-claim')}@example.com`.toLowerCase();
    const creators = [unique('creator'), unique('creator')];
    for (const creatorId of creators) await putRaw({ ...affiliateKeys.email(creatorId, email), type: 'AffiliateEmail', affiliateId: unique('aff'), creatorId });
    const found = () => queryAll({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': affiliateKeys.byEmail(email, '').gsi2pk } });
    expect(await found()).toEqual([]);
    expect(await backfillAffiliateEmailIndex()).toBeGreaterThanOrEqual(2);
    expect((await found()).map((item) => item['creatorId']).sort()).toEqual([...creators].sort());
    expect(await backfillAffiliateEmailIndex()).toBe(0);
    expect(await rawItem(affiliateKeys.email(creators[0]!, email))).toMatchObject({ gsi2sk: creators[0] });
  });

  it('pays a payout of more commissions than one transaction takes as lines of their own, read a page at a time', async () => {
    const repo = dynamoAffiliates();
    const creatorId = unique('creator');
    const ali = affiliate(creatorId);
    await repo.create(ali, linkEmail(ali.id));
    const orders = await Promise.all(Array.from({ length: PAYOUT_BATCH + 2 }, (_, i) => paidOrder(creatorId, ali.id, 100 + i)));
    let after: string | undefined;
    do {
      const page = await repo.dueForApproval('2026-11-26T00:00:00.000Z', 1_000, after);
      for (const c of page.items.filter((x) => x.affiliateId === ali.id)) await repo.approve(c, '2026-11-26T00:00:00.000Z');
      after = page.nextCursor ?? undefined;
    } while (after);
    const approved = await repo.approved(ali.id);
    expect(approved).toHaveLength(PAYOUT_BATCH + 2);
    const po = unique('po');
    // A full batch is one transaction of its commissions, their lines, the figures and the record: within 100 items.
    expect(await repo.pay({ affiliateId: ali.id, creatorId, payoutId: po, commissions: approved.slice(0, PAYOUT_BATCH), at: AT })).toEqual({ paid: true, stale: [] });
    expect(await repo.pay({ affiliateId: ali.id, creatorId, payoutId: po, commissions: approved.slice(PAYOUT_BATCH), at: AT })).toEqual({ paid: true, stale: [] });
    expect(await repo.payout(ali.id, po)).toMatchObject({ lines: PAYOUT_BATCH + 2, amount: approved.reduce((sum, c) => sum + c.amount, 0) });
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await repo.payoutLines(po, { cursor, limit: 20 });
      pages.push(page.items.map((line) => line.orderId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([20, 20, PAYOUT_BATCH + 2 - 40]);
    expect(pages.flat()).toEqual(orders.map((o) => o.id).sort());
    await expect(repo.payoutLines(unique('po'), { cursor: (await repo.payoutLines(po, { limit: 20 })).nextCursor!, limit: 20 })).rejects.toThrow(/cursor is not valid/);
  });

  it('moves a payout of the earlier shape (order ids in one list) to line items, once', async () => {
    const repo = dynamoAffiliates();
    const creatorId = unique('creator');
    const ali = affiliate(creatorId);
    await repo.create(ali, linkEmail(ali.id));
    const orders = [await paidOrder(creatorId, ali.id, 300), await paidOrder(creatorId, ali.id, 400)];
    const po = unique('po');
    const orderIds = [...orders.map((o) => o.id), unique('gone-order')];
    await putRaw({ ...affiliateKeys.payout(ali.id, po), type: 'Payout', payoutId: po, affiliateId: ali.id, amount: 700, orderIds, createdAt: AT, complete: true });
    expect(await backfillPayoutLines()).toBeGreaterThanOrEqual(1);
    expect(await rawItem(affiliateKeys.payout(ali.id, po))).not.toHaveProperty('orderIds');
    expect(await repo.payout(ali.id, po)).toMatchObject({ amount: 700, lines: 3, complete: true });
    expect((await repo.payoutLines(po, { limit: 10 })).items.map((line) => line.orderId)).toEqual([...orderIds].sort());
    const commission = (await repo.commission(ali.id, orders[0]!.id))!;
    expect(await rawItem(affiliateKeys.payoutLine(po, orders[0]!.id))).toMatchObject({ amount: commission.amount, affiliateId: ali.id });
    expect(await backfillPayoutLines()).toBe(0);
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

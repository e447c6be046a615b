import { describe, expect, it } from 'vitest';
import { aggregateChanges } from '#core/streams/aggregate.ts';
import { movesOf } from '#core/streams/counter-moves.ts';
import type { StreamChange } from '#core/streams/ports.ts';
import { fakeStreamCounters } from '#test/functions/fakes/stream-counters.ts';

const order = (over: Record<string, unknown> = {}) => ({
  pk: 'ORDER#o1',
  sk: 'ORDER',
  id: 'o1',
  creatorId: 'cr1',
  courseId: 'c1',
  couponCode: 'SAVE10',
  status: 'pending',
  amount: 2610,
  discount: 290,
  paidAt: null,
  ...over,
});
const paidAt = '2026-11-27T10:00:00.000Z';
const change = (sequence: number, oldImage: Record<string, unknown> | undefined, newImage: Record<string, unknown> | undefined): StreamChange => ({
  sequence: String(sequence),
  ...(oldImage ? { oldImage } : {}),
  ...(newImage ? { newImage } : {}),
});

describe('movesOf: what an order change moves on its creator\'s sales', () => {
  it('counts a payment: its amount, one sale, its discount and coupon, on the day it was paid', () => {
    expect(movesOf(change(1, order(), order({ status: 'paid', paidAt })))).toEqual([
      { kind: 'sales', order: { id: 'o1', creatorId: 'cr1', courseId: 'c1', couponCode: 'SAVE10' }, at: paidAt, move: { revenue: 2610, sales: 1, discount: 290, refunds: 0 } },
    ]);
  });

  it('counts a refund or a dispute of a paid order on the day of the reversal, and an order refunded at once as a refund only', () => {
    const paid = order({ status: 'paid', paidAt });
    for (const to of ['refunded', 'disputed']) {
      expect(movesOf(change(2, paid, { ...paid, status: to, reversedAt: '2026-12-01T09:00:00.000Z' }))).toEqual([
        expect.objectContaining({ at: '2026-12-01T09:00:00.000Z', move: { revenue: -2610, sales: 0, discount: 0, refunds: 1 } }),
      ]);
    }
    expect(movesOf(change(3, order(), order({ status: 'refunded', paidAt, reversedAt: paidAt })))).toEqual([
      expect.objectContaining({ order: expect.objectContaining({ couponCode: null }), at: paidAt, move: { revenue: 0, sales: 0, discount: 0, refunds: 1 } }),
    ]);
  });

  it('moves nothing for a new order, a change that keeps the status, an expiry, a removal or another item', () => {
    expect(movesOf(change(1, undefined, order()))).toEqual([]);
    expect(movesOf(change(2, order(), order({ checkoutSessionId: 'cs_1' })))).toEqual([]);
    expect(movesOf(change(3, order(), order({ status: 'expired' })))).toEqual([]);
    expect(movesOf(change(4, order({ status: 'paid', paidAt }), undefined))).toEqual([]);
    expect(movesOf(change(5, undefined, { pk: 'PAYINTENT#pi_1', sk: 'ORDER', status: 'paid' }))).toEqual([]);
  });

  it('refuses a paid order whose image lacks what it is counted by, rather than counting it wrong', () => {
    expect(() => movesOf(change(1, order(), order({ status: 'paid', paidAt: undefined })))).toThrow(/paidAt/);
  });
});

describe('movesOf: what an enrolment change moves on the active enrolments and completions', () => {
  const enrolment = (over: Record<string, unknown> = {}) => ({ pk: 'COURSE#c1', sk: 'ENROLL#l1', courseId: 'c1', learnerId: 'l1', creatorId: 'cr1', status: 'active', completedAt: null, ...over });
  const moved = (c: StreamChange) => movesOf(c).map((m) => (m.kind === 'enrolment' ? [m.students, m.completions, m.courseCount] : m.kind));

  it('counts an enrolment, a removal, a restore (with the completion it kept) and a completion', () => {
    expect(movesOf(change(1, undefined, enrolment()))).toEqual([{ kind: 'enrolment', courseId: 'c1', creatorId: 'cr1', learnerId: 'l1', students: 1, completions: 0, courseCount: true }]);
    const completed = enrolment({ completedAt: '2026-11-27T10:00:00.000Z' });
    expect(moved(change(2, enrolment(), completed))).toEqual([[0, 1, true]]);
    expect(moved(change(3, completed, { ...completed, status: 'removed' }))).toEqual([[-1, -1, true]]);
    expect(moved(change(4, { ...completed, status: 'removed' }, completed))).toEqual([[1, 1, true]]);
  });

  it('counts an enrolment deleted with its course out of the creator\'s figures but not on the course gone', () => {
    expect(moved(change(1, enrolment({ completedAt: '2026-11-27T10:00:00.000Z' }), undefined))).toEqual([[-1, -1, false]]);
    expect(moved(change(2, enrolment({ status: 'removed' }), undefined))).toEqual([]);
  });

  it('moves nothing for an enrolment item without its ids (none is written so): its shard is not stopped', () => {
    expect(movesOf(change(1, undefined, { pk: 'COURSE#c1', sk: 'ENROLL#l1', status: 'active' }))).toEqual([]);
  });

  it('moves nothing for a lesson done, a certificate or a title copy (the status and completion stay)', () => {
    expect(movesOf(change(1, enrolment(), enrolment({ progress: 50, certificateId: 'x', courseTitle: 'New' })))).toEqual([]);
    expect(movesOf(change(2, enrolment({ status: 'removed' }), enrolment({ status: 'removed', courseTitle: 'New' })))).toEqual([]);
  });
});

describe('aggregateChanges', () => {
  const sale = (n: number, id: string) => change(n, order({ pk: `ORDER#${id}`, id }), order({ pk: `ORDER#${id}`, id, status: 'paid', paidAt }));

  it('applies a shard\'s batch once: the same batch again (a retry after a crash) moves nothing', async () => {
    const fake = fakeStreamCounters();
    const batch = { shardId: 'shard-1', changes: [sale(1, 'a'), change(2, undefined, order({ pk: 'ORDER#b', id: 'b' })), sale(3, 'c')] };
    expect(await aggregateChanges(fake, batch)).toMatchObject({ applied: 3, skipped: 0, moves: 2 });
    expect(await aggregateChanges(fake, batch)).toMatchObject({ applied: 0, skipped: 3 });
    // A replay that starts inside what was applied applies only what is new.
    await aggregateChanges(fake, { shardId: 'shard-1', changes: [sale(3, 'c'), sale(4, 'd')] });
    expect(fake.sales.get('cr1')).toEqual({ revenue: 3 * 2610, sales: 3, discount: 3 * 290, refunds: 0 });
  });

  it('counts a buyer\'s enrolment and completion once, however often the batch comes', async () => {
    const fake = fakeStreamCounters();
    const e = { pk: 'COURSE#c1', sk: 'ENROLL#l1', courseId: 'c1', learnerId: 'l1', creatorId: 'cr1', status: 'active', completedAt: null };
    const batch = { shardId: 'shard-2', changes: [change(7, undefined, e), change(8, e, { ...e, completedAt: '2026-11-27T11:00:00.000Z' })] };
    await aggregateChanges(fake, batch);
    await aggregateChanges(fake, batch);
    expect(fake.enrolled.get('c1')).toBe(1);
    expect(fake.stats.get('cr1')).toEqual({ students: 1, completions: 1 });
  });
});

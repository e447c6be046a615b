import type { CounterMove, StreamChange } from '#core/streams/ports.ts';

/**
 * What one change of the table moves on the counters the stream aggregator keeps (docs/decisions/0040): pure, from the
 * item's old and new images. An order (pk ORDER#<id>, sk ORDER) moves its creator's sales when its status moves:
 * - pending -> paid: its amount as revenue, one sale, its discount, on the day it was paid;
 * - pending -> refunded (paid and refunded at once, it could not be fulfilled): one refund that day, nothing else;
 * - paid -> refunded or disputed: its amount back, one refund, on the day of the reversal.
 * Anything else (a new pending order, its checkout, its learner, an expiry) moves nothing.
 */
export const movesOf = (change: StreamChange): CounterMove[] => {
  const item = change.newImage ?? change.oldImage;
  if (!item || typeof item['pk'] !== 'string' || !item['pk'].startsWith('ORDER#') || item['sk'] !== 'ORDER') return [];
  const before = change.oldImage?.['status'];
  const after = change.newImage?.['status'];
  if (before === after || !change.newImage) return [];
  const order = change.newImage;
  const str = (name: string): string => {
    const value = order[name];
    if (typeof value !== 'string') throw new Error(`order ${String(order['id'])} has no ${name} in its stream image`);
    return value;
  };
  const num = (name: string): number => (typeof order[name] === 'number' ? order[name] : 0);
  const ids = { id: str('id'), creatorId: str('creatorId'), courseId: str('courseId'), couponCode: typeof order['couponCode'] === 'string' ? order['couponCode'] : null };
  if (before === 'pending' && after === 'paid') {
    return [{ kind: 'sales', order: ids, at: str('paidAt'), move: { revenue: num('amount'), sales: 1, discount: num('discount'), refunds: 0 } }];
  }
  if (before === 'pending' && after === 'refunded') {
    // Nothing sold, so no coupon use either.
    return [{ kind: 'sales', order: { ...ids, couponCode: null }, at: str('paidAt'), move: { revenue: 0, sales: 0, discount: 0, refunds: 1 } }];
  }
  if (before === 'paid' && (after === 'refunded' || after === 'disputed')) {
    return [{ kind: 'sales', order: ids, at: str('reversedAt'), move: { revenue: -num('amount'), sales: 0, discount: 0, refunds: 1 } }];
  }
  return [];
};

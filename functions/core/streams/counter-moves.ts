import type { CounterMove, StreamChange } from '#core/streams/ports.ts';

/** An enrolment image's figures: active (1 or 0), and active with a completion (1 or 0). */
const figuresOf = (image: Readonly<Record<string, unknown>> | undefined) => {
  const active = image?.['status'] === 'active' ? 1 : 0;
  return { active, completed: active === 1 && typeof image?.['completedAt'] === 'string' ? 1 : 0 };
};

/**
 * An enrolment (pk COURSE#<courseId>, sk ENROLL#<learnerId>) moves the active enrolments and completions by the
 * difference of its images: enrolled or restored (+1, and +1 completion if it was completed), removed (-1), the course
 * completed (+1 completion), deleted with its course (-1 each, and not on the course's count: the course is gone).
 */
const enrolmentMoves = (change: StreamChange, item: Readonly<Record<string, unknown>>): CounterMove[] => {
  const [before, after] = [figuresOf(change.oldImage), figuresOf(change.newImage)];
  const students = after.active - before.active;
  const completions = after.completed - before.completed;
  if (students === 0 && completions === 0) return [];
  const { courseId, learnerId, creatorId } = item;
  // Every enrolment the platform writes carries its ids (data/enrollments.ts enrollmentItem); an item without them (put
  // by hand) has no creator to count it for, and must not stop its stream shard (its whole batch retried, then given up).
  if (typeof courseId !== 'string' || typeof learnerId !== 'string' || typeof creatorId !== 'string') return [];
  return [{ kind: 'enrolment', courseId, creatorId, learnerId, students, completions, courseCount: change.newImage !== undefined }];
};

/**
 * What one change of the table moves on the counters the stream aggregator keeps (docs/decisions/0040): pure, from the
 * item's old and new images. An order (pk ORDER#<id>, sk ORDER) moves its creator's sales when its status moves:
 * - pending -> paid: its amount as revenue, one sale, its discount, on the day it was paid;
 * - pending -> refunded (paid and refunded at once, it could not be fulfilled): one refund that day, nothing else;
 * - paid -> refunded or disputed: its amount back, one refund, on the day of the reversal.
 * Anything else (a new pending order, its checkout, its learner, an expiry) moves nothing. An enrolment: enrolmentMoves.
 */
export const movesOf = (change: StreamChange): CounterMove[] => {
  const item = change.newImage ?? change.oldImage;
  if (item && typeof item['pk'] === 'string' && item['pk'].startsWith('COURSE#') && typeof item['sk'] === 'string' && item['sk'].startsWith('ENROLL#')) return enrolmentMoves(change, item);
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

import type { Order } from '#core/ports.ts';

/**
 * A course order as checkout creates it, pending: one buyer at the list price (£29), no coupon, affiliate, seats,
 * Stripe session, payment or learner yet. Each test sets what it is about (`over`); the id and the creator are its own.
 */
export const pendingOrder = (over: Partial<Order> & Pick<Order, 'id' | 'creatorId'>): Order => ({
  courseId: 'course-1',
  courseTitle: 'Knife skills',
  accountId: 'acct_1',
  status: 'pending',
  buyerEmail: null,
  price: 2900,
  discount: 0,
  amount: 2900,
  currency: 'gbp',
  couponCode: null,
  affiliateId: null,
  seats: null,
  checkoutSessionId: null,
  checkoutUrl: null,
  paymentIntentId: null,
  learnerId: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  paidAt: null,
  ...over,
});

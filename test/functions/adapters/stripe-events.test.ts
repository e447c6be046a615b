import { describe, expect, it } from 'vitest';
import { toBillingEvent } from '#adapters/stripe-payments.ts';

describe("reading Stripe's events", () => {
  it('reads a subscription with its period on the item (API 2025+)', () => {
    const event = toBillingEvent({
      id: 'evt_1', type: 'customer.subscription.updated', created: 1_800_000_000,
      data: { object: { id: 'sub_1', customer: 'cus_1', status: 'active', trial_end: null, cancel_at_period_end: true, items: { data: [{ price: { id: 'price_pro' }, current_period_end: 1_800_086_400 }] } } },
    });
    expect(event).toEqual({
      id: 'evt_1', type: 'customer.subscription.updated', created: 1_800_000_000, kind: 'subscription',
      subscription: { id: 'sub_1', customerId: 'cus_1', status: 'active', priceId: 'price_pro', trialEnd: null, currentPeriodEnd: '2027-01-16T08:00:00.000Z', cancelAtPeriodEnd: true },
    });
  });

  it('reads an expanded customer object and a checkout session', () => {
    const event = toBillingEvent({ id: 'evt_2', type: 'checkout.session.completed', created: 1, data: { object: { id: 'cs_1', mode: 'payment', customer: { id: 'cus_9' }, payment_status: 'paid' } } });
    expect(event).toMatchObject({ kind: 'checkout', checkout: { sessionId: 'cs_1', mode: 'payment', customerId: 'cus_9', paymentStatus: 'paid' } });
  });

  it('refuses a malformed subscription instead of guessing', () => {
    expect(() => toBillingEvent({ id: 'evt_3', type: 'customer.subscription.created', created: 1, data: { object: { id: 'sub_1' } } })).toThrow();
  });

  it('treats other types as "other"', () => {
    expect(toBillingEvent({ id: 'evt_4', type: 'invoice.paid', created: 1, data: { object: {} } })).toMatchObject({ kind: 'other' });
  });
});

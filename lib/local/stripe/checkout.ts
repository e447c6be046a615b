import type { Customers } from './customers.ts';
import { assertOpenSession, StripeApiError } from './errors.ts';
import { automatic, type Emit, type EventCause } from './events.ts';
import { newId, nowSeconds, type CheckoutSession, type StripeEvent, type StripeState } from './state.ts';
import type { Subscriptions } from './subscriptions.ts';

/**
 * Checkout Sessions after creation: paid on the hosted page, expired by the API or by the clock. An expired session
 * can never be paid: its page says so and Pay is refused.
 */
export const checkout = (state: StripeState, deps: { emit: Emit; customers: Customers; subscriptions: Subscriptions }) => {
  const { emit, customers, subscriptions } = deps;

  const expire = (session: CheckoutSession, cause: EventCause): StripeEvent[] => {
    session.status = 'expired';
    // Stripe keeps `url` only while the session can still be completed.
    session.url = null;
    return [emit('checkout.session.expired', session, cause)];
  };

  return {
    /** The hosted page's Pay: completes the session and creates what it bought. */
    pay(session: CheckoutSession): StripeEvent[] {
      if (session.status !== 'open') {
        throw new StripeApiError(400, `This Checkout Session is no longer open (status ${session.status}).`, 'checkout_session_not_open', 'id');
      }
      if (session.mode === 'payment') {
        session.payment_intent = newId('pi');
        session.payment_status = 'paid';
        session.status = 'complete';
        return [emit('checkout.session.completed', session)];
      }

      // Subscription mode always has a customer once paid: Stripe creates one from the entered email.
      const owner = (session.customer ? customers.find(session.customer) : undefined) ?? customers.create({ email: session.customer_email });
      session.customer = owner.id;
      session.customer_details = { email: owner.email, name: owner.name };
      const { subscription, invoice } = subscriptions.startFromCheckout(session, owner.id);
      const trial = subscription.trial_end !== null;
      session.subscription = subscription.id;
      session.invoice = invoice.id;
      // A trial charges nothing today: Stripe reports that as no_payment_required, not paid.
      session.payment_status = trial ? 'no_payment_required' : 'paid';
      session.status = 'complete';
      return [
        emit('checkout.session.completed', session),
        emit('customer.subscription.created', subscription),
        emit('invoice.paid', invoice),
      ];
    },

    /** `POST /v1/checkout/sessions/:id/expire`: only an open session can be expired, as in Stripe. */
    expire(session: CheckoutSession, cause: EventCause): StripeEvent[] {
      assertOpenSession(session);
      return expire(session, cause);
    },

    /** The clock: every open session past its `expires_at` expires, as Stripe does it on its own. */
    expireDue(now = nowSeconds()): StripeEvent[] {
      return Object.values(state.checkoutSessions)
        .filter((session) => session.status === 'open' && session.expires_at <= now)
        .flatMap((session) => expire(session, automatic));
    },
  };
};

export type Checkout = ReturnType<typeof checkout>;

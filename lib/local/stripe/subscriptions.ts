import { StripeApiError, missing } from './errors.ts';
import { automatic, type Emit, type EventCause } from './events.ts';
import { fullAmount, periodOf, type Invoices } from './invoices.ts';
import {
  addMonths,
  newId,
  nowSeconds,
  type CheckoutSession,
  type Invoice,
  type StripeEvent,
  type StripeState,
  type Subscription,
  type SubscriptionItem,
} from './state.ts';

/** Months in one billing period: the (first) price's interval, monthly or yearly. */
const monthsPerPeriod = (prices: { recurring: { interval: 'month' | 'year' } | null }[]): number =>
  prices[0]?.recurring?.interval === 'year' ? 12 : 1;

/**
 * The subscription lifecycle: created by a paid checkout, changed through the API, ended by a cancellation, moved
 * along by the clock (trial end, renewal) which the stand-in's test controls stand in for. Each operation changes
 * the state and returns the events it caused, in the order Stripe's docs describe.
 */
export const subscriptions = (state: StripeState, deps: { emit: Emit; invoices: Invoices }) => {
  const { emit, invoices } = deps;

  const find = (id: string, param = 'id', status = 404): Subscription => {
    const found = state.subscriptions[id];
    if (!found) throw missing('subscription', id, param, status);
    return found;
  };

  /** Starts the next billing period at `start`: charges it (or fails, when armed) and reports both changes. */
  const renew = (sub: Subscription, start: number, cause: EventCause, endingTrial: boolean): StripeEvent[] => {
    const before = { status: sub.status, trial_end: sub.trial_end, latest_invoice: sub.latest_invoice };
    const previousPeriod = periodOf(sub);
    const end = addMonths(start, monthsPerPeriod(sub.items.data.map((item) => item.price)));
    const fails = state.failNextInvoice[sub.id] === true;
    delete state.failNextInvoice[sub.id];
    const previousItems = structuredClone(sub.items);
    for (const item of sub.items.data) {
      item.current_period_start = start;
      item.current_period_end = end;
    }
    if (endingTrial) {
      sub.trial_end = start;
      sub.billing_cycle_anchor = start;
    }
    const invoice = invoices.create(sub, {
      reason: 'subscription_cycle',
      service: { start, end },
      invoicePeriod: previousPeriod,
      amount: fullAmount(sub),
      paid: !fails,
      trial: false,
    });
    sub.status = fails ? 'past_due' : 'active';
    const previous: Record<string, unknown> = { items: previousItems, latest_invoice: before.latest_invoice };
    if (before.status !== sub.status) previous.status = before.status;
    if (endingTrial) previous.trial_end = before.trial_end;
    return [
      emit('customer.subscription.updated', sub, cause, previous),
      emit(fails ? 'invoice.payment_failed' : 'invoice.paid', invoice, cause),
    ];
  };

  const cancel = (sub: Subscription, cause: EventCause, at = nowSeconds()): StripeEvent[] => {
    if (sub.status === 'canceled') {
      throw new StripeApiError(400, `This subscription has already been canceled: '${sub.id}'`, 'resource_missing', 'id');
    }
    sub.status = 'canceled';
    sub.canceled_at = nowSeconds();
    sub.ended_at = at;
    sub.cancel_at = null;
    sub.cancellation_details = { comment: null, feedback: null, reason: 'cancellation_requested' };
    return [emit('customer.subscription.deleted', sub, cause)];
  };

  /** Test control: the trial ends now (Stripe would warn 3 days before, then bill at the end). */
  const endTrial = (sub: Subscription, cause: EventCause = automatic): StripeEvent[] => {
    if (sub.status !== 'trialing') {
      throw new StripeApiError(400, `Subscription ${sub.id} is not trialing (status ${sub.status}).`, 'subscription_not_trialing', 'id');
    }
    return [emit('customer.subscription.trial_will_end', sub, cause), ...renew(sub, nowSeconds(), cause, true)];
  };

  return {
    find,

    /**
     * The subscription a paid subscription-mode checkout creates for `customerId`, with its first invoice (a zero
     * one during a trial). Events are the caller's: checkout reports them in Stripe's order.
     */
    startFromCheckout(session: CheckoutSession, customerId: string): { subscription: Subscription; invoice: Invoice } {
      const now = nowSeconds();
      const trialDays = session.subscription_data.trial_period_days;
      const trialEnd = trialDays ? now + trialDays * 86_400 : null;
      const periodEnd = trialEnd ?? addMonths(now, monthsPerPeriod(session.line_items_data.map((line) => line.price)));
      const id = newId('sub');
      const items: SubscriptionItem[] = session.line_items_data.map((line) => ({
        id: newId('si', 14),
        object: 'subscription_item',
        created: now,
        current_period_end: periodEnd,
        current_period_start: now,
        discounts: [],
        metadata: {},
        price: line.price,
        quantity: line.quantity,
        subscription: id,
        tax_rates: [],
      }));
      const sub: Subscription = {
        id,
        object: 'subscription',
        billing_cycle_anchor: periodEnd,
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        cancellation_details: { comment: null, feedback: null, reason: null },
        collection_method: 'charge_automatically',
        created: now,
        currency: session.currency,
        customer: customerId,
        default_payment_method: newId('pm', 14),
        description: null,
        discounts: [],
        ended_at: null,
        items: { object: 'list', data: items, has_more: false, total_count: items.length, url: `/v1/subscription_items?subscription=${id}` },
        latest_invoice: null,
        livemode: false,
        metadata: { ...session.subscription_data.metadata },
        start_date: now,
        status: trialEnd ? 'trialing' : 'active',
        trial_end: trialEnd,
        trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
        trial_start: trialEnd ? now : null,
      };
      state.subscriptions[id] = sub;
      const invoice = invoices.create(sub, {
        reason: 'subscription_create',
        service: { start: now, end: periodEnd },
        invoicePeriod: { start: now, end: now },
        amount: trialEnd ? 0 : fullAmount(sub),
        paid: true,
        trial: trialEnd !== null,
      });
      return { subscription: sub, invoice };
    },

    /** `POST /v1/subscriptions/:id` for the fields the platform changes. */
    update(
      sub: Subscription,
      changes: { cancelAtPeriodEnd?: boolean; metadata?: Record<string, string>; priceSwaps?: { itemId: string; price: SubscriptionItem['price'] }[] },
      cause: EventCause,
    ): StripeEvent[] {
      if (sub.status === 'canceled') {
        throw new StripeApiError(400, 'A canceled subscription can only update its cancellation_details and metadata.', undefined, 'cancel_at_period_end');
      }
      const previous: Record<string, unknown> = {};
      if (changes.cancelAtPeriodEnd !== undefined && changes.cancelAtPeriodEnd !== sub.cancel_at_period_end) {
        previous.cancel_at_period_end = sub.cancel_at_period_end;
        previous.cancel_at = sub.cancel_at;
        previous.cancellation_details = { ...sub.cancellation_details };
        sub.cancel_at_period_end = changes.cancelAtPeriodEnd;
        sub.cancel_at = changes.cancelAtPeriodEnd ? periodOf(sub).end : null;
        sub.cancellation_details = {
          comment: null,
          feedback: null,
          reason: changes.cancelAtPeriodEnd ? 'cancellation_requested' : null,
        };
      }
      if (changes.metadata && JSON.stringify(changes.metadata) !== JSON.stringify(sub.metadata)) {
        previous.metadata = { ...sub.metadata };
        sub.metadata = changes.metadata;
      }
      if (changes.priceSwaps && changes.priceSwaps.length > 0) {
        previous.items = structuredClone(sub.items);
        for (const swap of changes.priceSwaps) {
          const item = sub.items.data.find((candidate) => candidate.id === swap.itemId);
          if (!item) throw missing('subscription item', swap.itemId, 'items[0][id]', 400);
          item.price = swap.price;
        }
      }
      return Object.keys(previous).length > 0 ? [emit('customer.subscription.updated', sub, cause, previous)] : [];
    },

    cancel,

    endTrial,

    /** Test control: the current period ends; the subscription renews, or ends if it was set to cancel. */
    advancePeriod(sub: Subscription, cause: EventCause = automatic): StripeEvent[] {
      if (sub.status === 'trialing') return endTrial(sub, cause);
      if (sub.status === 'canceled') {
        throw new StripeApiError(400, `Subscription ${sub.id} is canceled.`, 'subscription_canceled', 'id');
      }
      const { end } = periodOf(sub);
      if (sub.cancel_at_period_end) return cancel(sub, cause, end);
      return renew(sub, end, cause, false);
    },
  };
};

export type Subscriptions = ReturnType<typeof subscriptions>;

import {
  addMonths,
  apiVersion,
  newId,
  nowSeconds,
  type CheckoutSession,
  type Customer,
  type Invoice,
  type StripeEvent,
  type StripeState,
  type Subscription,
  type SubscriptionItem,
} from './stripe-stand-in-state.ts';

/**
 * The billing lifecycle: what happens when a checkout is paid, a subscription changes, a trial ends, a period
 * renews. Each operation changes the state and returns the events it caused, in the order Stripe's docs describe;
 * delivering them is the caller's business.
 */

/** Which API request caused an event (null for the hosted pages and the clock, as in Stripe). */
export interface EventCause {
  requestId: string | null;
  idempotencyKey: string | null;
}

const automatic: EventCause = { requestId: null, idempotencyKey: null };

/** An error the API reports in Stripe's shape (`{error:{type,code,message,param}}`). */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly type: 'invalid_request_error' | 'idempotency_error' | 'api_error' = 'invalid_request_error',
  ) {
    super(message);
  }
}

export const missing = (kind: string, id: string, param = 'id', status = 404): StripeApiError =>
  new StripeApiError(status, `No such ${kind}: '${id}'`, 'resource_missing', param);

/** The session as the API returns it: the stand-in's bookkeeping fields stay private. */
export const renderSession = (session: CheckoutSession): Omit<CheckoutSession, 'line_items_data' | 'subscription_data'> => {
  const { line_items_data: _lines, subscription_data: _subscriptionData, ...visible } = session;
  return visible;
};

/** What an event carries: a snapshot, so later changes to the state do not rewrite history. */
const snapshot = (object: unknown): unknown =>
  structuredClone(
    object !== null && typeof object === 'object' && (object as { object?: string }).object === 'checkout.session'
      ? renderSession(object as CheckoutSession)
      : object,
  );

export const createBilling = (state: StripeState) => {
  const emit = (
    type: string,
    object: unknown,
    cause: EventCause = automatic,
    previousAttributes?: Record<string, unknown>,
  ): StripeEvent => {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: apiVersion,
      created: nowSeconds(),
      data: previousAttributes
        ? { object: snapshot(object), previous_attributes: structuredClone(previousAttributes) }
        : { object: snapshot(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: cause.requestId, idempotency_key: cause.idempotencyKey },
      type,
    };
    state.events[event.id] = event;
    return event;
  };

  const subscription = (id: string, param = 'id', status = 404): Subscription => {
    const found = state.subscriptions[id];
    if (!found) throw missing('subscription', id, param, status);
    return found;
  };

  const customer = (id: string): Customer | undefined => state.customers[id];

  const createCustomer = (fields: { email: string | null; name?: string | null }): Customer => {
    const created: Customer = {
      id: newId('cus', 14),
      object: 'customer',
      balance: 0,
      created: nowSeconds(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: null,
      email: fields.email,
      invoice_prefix: newId('x', 8).slice(2).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: {},
      name: fields.name ?? null,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    state.customers[created.id] = created;
    return created;
  };

  const periodOf = (sub: Subscription): { start: number; end: number } => {
    const item = sub.items.data[0];
    return { start: item?.current_period_start ?? sub.start_date, end: item?.current_period_end ?? sub.start_date };
  };

  const fullAmount = (sub: Subscription): number =>
    sub.items.data.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0);

  /**
   * An invoice for the service period [start, end]. As in Stripe, the lines carry the service period, while the
   * invoice's own period_start/period_end are the period that just ended (equal to `created` for the first one):
   * read the billed period from `lines.data[].period` or the subscription item.
   */
  const createInvoice = (
    sub: Subscription,
    options: {
      reason: Invoice['billing_reason'];
      service: { start: number; end: number };
      invoicePeriod: { start: number; end: number };
      amount: number;
      paid: boolean;
      trial: boolean;
    },
  ): Invoice => {
    const now = nowSeconds();
    const id = newId('in');
    const owner = customer(sub.customer);
    state.invoiceSequence += 1;
    const invoice: Invoice = {
      id,
      object: 'invoice',
      amount_due: options.amount,
      amount_paid: options.paid ? options.amount : 0,
      amount_remaining: options.paid ? 0 : options.amount,
      attempt_count: options.amount > 0 ? 1 : 0,
      attempted: options.amount > 0 || options.paid,
      billing_reason: options.reason,
      collection_method: 'charge_automatically',
      created: now,
      currency: sub.currency,
      customer: sub.customer,
      customer_email: owner?.email ?? null,
      hosted_invoice_url: null,
      lines: {
        object: 'list',
        data: sub.items.data.map((item) => ({
          id: newId('il'),
          object: 'line_item',
          amount: options.trial ? 0 : item.price.unit_amount * item.quantity,
          currency: sub.currency,
          description: options.trial
            ? `Trial period for ${state.products[item.price.product]?.name ?? item.price.id}`
            : `${item.quantity} × ${state.products[item.price.product]?.name ?? item.price.id}`,
          invoice: id,
          livemode: false,
          metadata: {},
          parent: {
            type: 'subscription_item_details',
            subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration: false },
          },
          period: { ...options.service },
          pricing: {
            type: 'price_details',
            price_details: { price: item.price.id, product: item.price.product },
            unit_amount_decimal: item.price.unit_amount_decimal,
          },
          quantity: item.quantity,
        })),
        has_more: false,
        total_count: sub.items.data.length,
        url: `/v1/invoices/${id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: options.paid ? null : now + 3 * 86_400,
      number: `${owner?.invoice_prefix ?? 'LOCAL'}-${String(state.invoiceSequence).padStart(4, '0')}`,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } },
      },
      period_end: options.invoicePeriod.end,
      period_start: options.invoicePeriod.start,
      status: options.paid ? 'paid' : 'open',
      status_transitions: { finalized_at: now, paid_at: options.paid ? now : null, voided_at: null },
      subtotal: options.amount,
      total: options.amount,
    };
    state.invoices[id] = invoice;
    sub.latest_invoice = id;
    return invoice;
  };

  /** Starts the next billing period at `start`: charges it (or fails, when armed) and reports both changes. */
  const renew = (sub: Subscription, start: number, cause: EventCause, endingTrial: boolean): StripeEvent[] => {
    const before = { status: sub.status, trial_end: sub.trial_end, latest_invoice: sub.latest_invoice };
    const previousPeriod = periodOf(sub);
    const end = addMonths(start, 1);
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
    const invoice = createInvoice(sub, {
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
    emit,
    subscription,
    createCustomer,

    /** The hosted page's Pay: completes the session and creates what it bought. */
    payCheckout(session: CheckoutSession): StripeEvent[] {
      const now = nowSeconds();
      if (session.mode === 'payment') {
        session.payment_intent = newId('pi');
        session.payment_status = 'paid';
        session.status = 'complete';
        return [emit('checkout.session.completed', session)];
      }

      // Subscription mode always has a customer once paid: Stripe creates one from the entered email.
      const owner = (session.customer ? customer(session.customer) : undefined) ?? createCustomer({ email: session.customer_email });
      session.customer = owner.id;
      const trialDays = session.subscription_data.trial_period_days;
      const trialEnd = trialDays ? now + trialDays * 86_400 : null;
      const periodEnd = trialEnd ?? addMonths(now, 1);
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
        customer: owner.id,
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
      const invoice = createInvoice(sub, {
        reason: 'subscription_create',
        service: { start: now, end: periodEnd },
        invoicePeriod: { start: now, end: now },
        amount: trialEnd ? 0 : fullAmount(sub),
        paid: true,
        trial: trialEnd !== null,
      });
      session.subscription = id;
      session.invoice = invoice.id;
      // A trial charges nothing today: Stripe reports that as no_payment_required, not paid.
      session.payment_status = trialEnd ? 'no_payment_required' : 'paid';
      session.status = 'complete';
      return [
        emit('checkout.session.completed', session),
        emit('customer.subscription.created', sub),
        emit('invoice.paid', invoice),
      ];
    },

    /** `POST /v1/subscriptions/:id` for the fields the platform changes. */
    updateSubscription(
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

    cancelSubscription: cancel,

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

export type Billing = ReturnType<typeof createBilling>;

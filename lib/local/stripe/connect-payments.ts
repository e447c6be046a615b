import type { Accounts } from './accounts.ts';
import type {
  Account,
  Charge,
  ConnectCheckoutSession,
  ConnectedData,
  ConnectLineItem,
  Dispute,
  PaymentIntent,
  PromotionCode,
  Refund,
} from './connect-state.ts';
import type { Discounts } from './discounts.ts';
import { assertOpenSession, missing, StripeApiError } from './errors.ts';
import { automatic, eventLog, type EventCause } from './events.ts';
import { list, obj, str, type FormObject } from './form.ts';
import { email, expiry, integer, metadata, required, url } from './params.ts';
import { formatMoney } from './pages.ts';
import { inlinePriceOf, mergeMetadata, newId, nowSeconds, type Price, type StripeEvent, type StripeState } from './state.ts';

/**
 * Direct charges on connected accounts: Checkout Sessions (payment mode) created with the account's
 * `Stripe-Account` header, paid on the hosted page as a card payment (a PaymentIntent and its Charge on that account),
 * refunded through the API, disputed by a test control. Every event is a Connect event of the account.
 */

export type PayOutcome = { events: StripeEvent[] } | { refused: string };

const refundReasons = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

export const connectPayments = (state: StripeState, deps: { accounts: Accounts; discounts: Discounts; publicUrl: () => string }) => {
  const { accounts, discounts } = deps;

  /** `price_data` builds a one-off price (and product) on the account, as Stripe does for ad-hoc amounts. */
  const inlinePrice = (data: ConnectedData, priceData: FormObject, param: string): Price => {
    const productData = obj(priceData.product_data);
    const productId = str(priceData.product) ?? newId('prod', 14);
    if (!data.products[productId]) {
      if (str(priceData.product)) throw missing('product', productId, `${param}[product]`, 400);
      data.products[productId] = {
        id: productId,
        object: 'product',
        active: true,
        name: required(str(productData?.name), `${param}[product_data][name]`),
        description: str(productData?.description) ?? null,
        created: nowSeconds(),
        livemode: false,
        metadata: mergeMetadata({}, metadata(productData?.metadata, `${param}[product_data][metadata]`)),
      };
    }
    if (obj(priceData.recurring)) {
      throw new StripeApiError(400, 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', 'parameter_invalid', `${param}[recurring]`);
    }
    const amount = required(integer(priceData.unit_amount, `${param}[unit_amount]`), `${param}[unit_amount]`);
    const created = inlinePriceOf({ productId, currency: required(str(priceData.currency), `${param}[currency]`), amount, recurring: false });
    data.prices[created.id] = created;
    return created;
  };

  const lineItems = (data: ConnectedData, params: FormObject): ConnectLineItem[] => {
    const lines = list(params.line_items) ?? [];
    if (lines.length === 0) throw new StripeApiError(400, 'line_items is required in payment mode.', 'parameter_missing', 'line_items');
    return lines.map((raw, index) => {
      const line = obj(raw) ?? {};
      const param = `line_items[${index}]`;
      const priceId = str(line.price);
      const priceData = obj(line.price_data);
      let chosen: Price | undefined;
      if (priceId) {
        chosen = data.prices[priceId];
        if (!chosen) throw missing('price', priceId, `${param}[price]`, 400);
      } else if (priceData) {
        chosen = inlinePrice(data, priceData, `${param}[price_data]`);
      }
      if (!chosen) throw new StripeApiError(400, `You must specify either \`price\` or \`price_data\` in ${param}.`, 'parameter_missing', `${param}[price]`);
      const quantity = integer(line.quantity, `${param}[quantity]`, 1) ?? 1;
      return {
        id: newId('li'),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: chosen.unit_amount * quantity,
        amount_tax: 0,
        amount_total: chosen.unit_amount * quantity,
        currency: chosen.currency,
        description: data.products[chosen.product]?.name ?? chosen.id,
        price: chosen,
        quantity,
      };
    });
  };

  /** The one discount Checkout allows: a promotion code or a coupon, checked as Stripe checks them at creation. */
  const discountOf = (data: ConnectedData, params: FormObject, lines: ConnectLineItem[], currency: string) => {
    const entries = list(params.discounts) ?? [];
    if (entries.length === 0) return { promo: undefined, couponId: null, amount: 0 };
    if (params.allow_promotion_codes !== undefined) {
      throw new StripeApiError(400, 'You may only specify one of these parameters: allow_promotion_codes, discounts.', undefined, 'allow_promotion_codes');
    }
    if (entries.length > 1) throw new StripeApiError(400, 'You may only specify one discount for a Checkout Session.', undefined, 'discounts');
    const entry = obj(entries[0]) ?? {};
    const promoId = str(entry.promotion_code);
    const couponParam = str(entry.coupon);
    if (promoId && couponParam) {
      throw new StripeApiError(400, 'You may only specify one of these parameters: coupon, promotion_code.', undefined, 'discounts[0][coupon]');
    }
    if (!promoId && !couponParam) throw new StripeApiError(400, 'Missing required param: discounts[0][promotion_code].', 'parameter_missing', 'discounts[0][promotion_code]');
    const param = promoId ? 'discounts[0][promotion_code]' : 'discounts[0][coupon]';
    const promo: PromotionCode | undefined = promoId ? discounts.promotionCode(data, promoId, param, 400) : undefined;
    const couponId = promo ? promo.promotion.coupon : (couponParam ?? null);
    if (!promo && couponId) discounts.coupon(data, couponId, param, 400);
    const why = discounts.notRedeemable(data, promo, couponId);
    if (why) throw new StripeApiError(400, why, undefined, param);
    const subtotal = lines.reduce((sum, line) => sum + line.amount_subtotal, 0);
    const minimum = promo?.restrictions.minimum_amount ?? null;
    if (minimum !== null && subtotal < minimum) {
      throw new StripeApiError(400, 'This promotion code cannot be redeemed because the associated purchase does not meet the minimum amount requirement.', undefined, param);
    }
    const amount = discounts.apply(data.coupons[couponId ?? '']!, lines, currency, param);
    return { promo, couponId, amount };
  };

  const create = (account: Account, params: FormObject): ConnectCheckoutSession => {
    // Stripe refuses charges on an account that may not take them, before looking at the rest of the request.
    if (!account.charges_enabled) {
      throw new StripeApiError(
        400,
        `Your account cannot currently make charges. To find out why charge creation is currently disabled, look at the \`requirements.disabled_reason\` property on this account (/v1/accounts/${account.id}).`,
      );
    }
    const data = accounts.scope(account.id);
    const mode = required(str(params.mode), 'mode');
    if (mode !== 'payment') {
      throw new StripeApiError(400, `Invalid mode: the local stand-in supports mode=payment on connected accounts (got ${mode})`, 'parameter_invalid_string', 'mode');
    }
    const customerId = str(params.customer);
    // The stand-in keeps no customers on connected accounts: any id is unknown there, as it would be in Stripe.
    if (customerId) throw missing('customer', customerId, 'customer', 400);
    const customerEmail = email(params.customer_email, 'customer_email') ?? null;
    const successUrl = required(url(params.success_url, 'success_url'), 'success_url');
    const cancelUrl = url(params.cancel_url, 'cancel_url') ?? null;
    const lines = lineItems(data, params);
    const currencies = new Set(lines.map((line) => line.currency));
    if (currencies.size > 1) throw new StripeApiError(400, 'All prices must use the same currency.', 'parameter_invalid', 'line_items');
    const currency = lines[0]?.currency ?? account.default_currency;
    const intentData = obj(params.payment_intent_data);
    const applicationFee = integer(intentData?.application_fee_amount, 'payment_intent_data[application_fee_amount]') ?? null;
    const intentMetadata = metadata(intentData?.metadata, 'payment_intent_data[metadata]');
    const sessionMetadata = metadata(params.metadata);
    const clientReference = str(params.client_reference_id) ?? null;
    const now = nowSeconds();
    const expiresAt = expiry(params.expires_at, now);
    const discount = discountOf(data, params, lines, currency);

    const subtotal = lines.reduce((sum, line) => sum + line.amount_subtotal, 0);
    const total = subtotal - discount.amount;
    if (applicationFee !== null && applicationFee > total) {
      throw new StripeApiError(400, 'The application fee amount cannot be greater than the amount of the payment.', undefined, 'payment_intent_data[application_fee_amount]');
    }
    const id = newId('cs_test', 58);
    const session: ConnectCheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: subtotal,
      amount_total: total,
      cancel_url: cancelUrl,
      client_reference_id: clientReference,
      created: now,
      currency,
      customer: null,
      customer_creation: 'if_required',
      customer_details: null,
      customer_email: customerEmail,
      discounts: discount.promo
        ? [{ coupon: null, promotion_code: discount.promo.id }]
        : discount.couponId
          ? [{ coupon: discount.couponId, promotion_code: null }]
          : [],
      expires_at: expiresAt,
      invoice: null,
      livemode: false,
      metadata: mergeMetadata({}, sessionMetadata),
      mode: 'payment',
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: successUrl,
      total_details: { amount_discount: discount.amount, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${deps.publicUrl()}/checkout/${id}`,
      line_items_data: lines,
      subscription_data: { trial_period_days: null, metadata: {} },
      connect_data: {
        account: account.id,
        coupon: discount.couponId,
        promotion_code: discount.promo?.id ?? null,
        payment_intent_data: {
          application_fee_amount: applicationFee,
          description: str(intentData?.description) ?? null,
          metadata: mergeMetadata({}, intentMetadata),
        },
      },
    };
    data.checkoutSessions[id] = session;
    return session;
  };

  /** A card payment of the session's total: the PaymentIntent and its Charge, both succeeded. */
  const charge = (data: ConnectedData, session: ConnectCheckoutSession): { intent: PaymentIntent; charge: Charge } => {
    const now = nowSeconds();
    const intentData = session.connect_data.payment_intent_data;
    const intentId = newId('pi');
    const chargeId = newId('ch');
    const paymentMethod = newId('pm');
    const intent: PaymentIntent = {
      id: intentId,
      object: 'payment_intent',
      amount: session.amount_total,
      amount_capturable: 0,
      amount_received: session.amount_total,
      application: null,
      application_fee_amount: intentData.application_fee_amount,
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${intentId}_secret_${newId('x', 25).slice(2)}`,
      confirmation_method: 'automatic',
      created: now,
      currency: session.currency,
      customer: null,
      description: intentData.description,
      last_payment_error: null,
      latest_charge: chargeId,
      livemode: false,
      metadata: { ...intentData.metadata },
      next_action: null,
      on_behalf_of: null,
      payment_method: paymentMethod,
      payment_method_types: ['card'],
      receipt_email: null,
      setup_future_usage: null,
      shipping: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    };
    const paid: Charge = {
      id: chargeId,
      object: 'charge',
      amount: session.amount_total,
      amount_captured: session.amount_total,
      amount_refunded: 0,
      application: null,
      application_fee: intentData.application_fee_amount !== null ? newId('fee') : null,
      application_fee_amount: intentData.application_fee_amount,
      balance_transaction: newId('txn'),
      billing_details: { address: null, email: session.customer_details?.email ?? session.customer_email, name: null, phone: null, tax_id: null },
      calculated_statement_descriptor: 'LOCAL STAND-IN',
      captured: true,
      created: now,
      currency: session.currency,
      customer: null,
      description: intentData.description,
      disputed: false,
      failure_code: null,
      failure_message: null,
      fraud_details: {},
      livemode: false,
      metadata: { ...intentData.metadata },
      on_behalf_of: null,
      outcome: { network_status: 'approved_by_network', reason: null, risk_level: 'normal', seller_message: 'Payment complete.', type: 'authorized' },
      paid: true,
      payment_intent: intentId,
      payment_method: paymentMethod,
      payment_method_details: {
        type: 'card',
        card: { brand: 'visa', country: 'US', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: 'credit', last4: '4242' },
      },
      receipt_email: session.customer_details?.email ?? session.customer_email,
      receipt_number: null,
      receipt_url: `${deps.publicUrl()}/receipts/${chargeId}`,
      refunded: false,
      review: null,
      shipping: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    };
    data.paymentIntents[intentId] = intent;
    data.charges[chargeId] = paid;
    return { intent, charge: paid };
  };

  const expire = (session: ConnectCheckoutSession, cause: EventCause): StripeEvent[] => {
    session.status = 'expired';
    session.url = null;
    return [eventLog(state, session.connect_data.account)('checkout.session.expired', session, cause)];
  };

  const chargeOf = (data: ConnectedData, params: FormObject): Charge => {
    const intentId = str(params.payment_intent);
    const chargeId = str(params.charge);
    if (!intentId && !chargeId) {
      throw new StripeApiError(400, 'One of the following params should be provided for this request: payment_intent or charge.', 'parameter_missing', 'payment_intent');
    }
    if (intentId) {
      const intent = data.paymentIntents[intentId];
      if (!intent) throw missing('payment_intent', intentId, 'payment_intent', 400);
      const found = intent.latest_charge ? data.charges[intent.latest_charge] : undefined;
      if (!found) throw new StripeApiError(400, `This PaymentIntent (${intentId}) does not have a successful charge to refund.`, undefined, 'payment_intent');
      if (chargeId && chargeId !== found.id) {
        throw new StripeApiError(400, `The charge ${chargeId} does not belong to the PaymentIntent ${intentId}.`, undefined, 'charge');
      }
      return found;
    }
    const found = data.charges[chargeId!];
    if (!found) throw missing('charge', chargeId!, 'charge', 400);
    return found;
  };

  return {
    create,

    /** The session on whichever account holds it (the hosted page knows only the id). */
    findSession(id: string): ConnectCheckoutSession | undefined {
      for (const data of Object.values(state.connected)) if (data.checkoutSessions[id]) return data.checkoutSessions[id];
      return undefined;
    },

    /**
     * The hosted page's Pay. The discount is checked again and counted in the same synchronous step as the payment,
     * so concurrent Pays can never redeem a code beyond its `max_redemptions`: the late ones are refused.
     */
    pay(session: ConnectCheckoutSession, typedEmail?: string): PayOutcome {
      if (session.status !== 'open') return { refused: `This Checkout Session is no longer open (status ${session.status}).` };
      const account = session.connect_data.account;
      const data = accounts.scope(account);
      const { promotion_code: promoId, coupon: couponId } = session.connect_data;
      if (promoId || couponId) {
        const why = discounts.notRedeemable(data, promoId ? data.promotionCodes[promoId] : undefined, couponId);
        if (why) return { refused: why };
        discounts.redeem(data, promoId ? data.promotionCodes[promoId] : undefined, couponId);
      }
      // The email the session was made with, or the one the buyer typed on the hosted page (Stripe keeps that one in
      // customer_details only: customer_email stays as created).
      session.customer_details = {
        address: null,
        business_name: null,
        email: session.customer_email ?? typedEmail ?? null,
        individual_name: null,
        name: null,
        phone: null,
        tax_exempt: 'none',
        tax_ids: [],
      };
      session.status = 'complete';
      const emit = eventLog(state, account);
      if (session.amount_total === 0) {
        session.payment_status = 'no_payment_required';
        return { events: [emit('checkout.session.completed', session)] };
      }
      const { intent, charge: paid } = charge(data, session);
      session.payment_intent = intent.id;
      session.payment_status = 'paid';
      return { events: [emit('charge.succeeded', paid), emit('checkout.session.completed', session)] };
    },

    expire(session: ConnectCheckoutSession, cause: EventCause): StripeEvent[] {
      assertOpenSession(session);
      return expire(session, cause);
    },

    /** The clock: open sessions past `expires_at` on every account expire, with a Connect event each. */
    expireDue(now = nowSeconds()): StripeEvent[] {
      return Object.values(state.connected)
        .flatMap((data) => Object.values(data.checkoutSessions))
        .filter((session) => session.status === 'open' && session.expires_at <= now)
        .flatMap((session) => expire(session, automatic));
    },

    /** `POST /v1/refunds` on an account: the whole unrefunded amount by default, never more than is left. */
    refund(account: string, params: FormObject, cause: EventCause): { refund: Refund; events: StripeEvent[] } {
      const data = accounts.scope(account);
      const target = chargeOf(data, params);
      const amount = integer(params.amount, 'amount', 1);
      const reason = str(params.reason);
      if (reason !== undefined && !(refundReasons as readonly string[]).includes(reason)) {
        throw new StripeApiError(400, `Invalid reason: must be one of ${refundReasons.join(', ')}`, 'parameter_invalid_string', 'reason');
      }
      const refundMetadata = metadata(params.metadata);
      if (target.disputed) {
        const dispute = Object.values(data.disputes).find((item) => item.charge === target.id);
        if (dispute && !dispute.is_charge_refundable) {
          throw new StripeApiError(400, `Charge ${target.id} has been charged back; cannot issue a refund.`, 'charge_disputed');
        }
      }
      const left = target.amount - target.amount_refunded;
      if (left <= 0) throw new StripeApiError(400, `Charge ${target.id} has already been refunded.`, 'charge_already_refunded');
      if (amount !== undefined && amount > left) {
        throw new StripeApiError(
          400,
          `Refund amount (${formatMoney(amount, target.currency)}) is greater than unrefunded amount on charge (${formatMoney(left, target.currency)})`,
          undefined,
          'amount',
        );
      }
      const created: Refund = {
        id: newId('re'),
        object: 'refund',
        amount: amount ?? left,
        balance_transaction: newId('txn'),
        charge: target.id,
        created: nowSeconds(),
        currency: target.currency,
        customer: null,
        customer_account: null,
        metadata: mergeMetadata({}, refundMetadata),
        payment_intent: target.payment_intent,
        payment_method: target.payment_method,
        reason: (reason as Refund['reason'] | undefined) ?? null,
        receipt_number: null,
        source_transfer_reversal: null,
        status: 'succeeded',
        transfer_reversal: null,
      };
      data.refunds[created.id] = created;
      const previous = { amount_refunded: target.amount_refunded, refunded: target.refunded };
      target.amount_refunded += created.amount;
      target.refunded = target.amount_refunded >= target.amount;
      const emit = eventLog(state, account);
      return {
        refund: created,
        events: [emit('charge.refunded', target, cause, previous), emit('refund.created', created, cause)],
      };
    },

    /** The dispute control: the card holder disputes the charge as fraudulent; the seller must respond. */
    dispute(chargeId: string, options: { reason?: string; amount?: number }): { dispute: Dispute; events: StripeEvent[] } | undefined {
      const entry = Object.entries(state.connected).find(([, data]) => data.charges[chargeId]);
      if (!entry) return undefined;
      const [account, data] = entry;
      const target = data.charges[chargeId]!;
      if (target.disputed) throw new StripeApiError(400, `Charge ${chargeId} has already been disputed.`, 'charge_disputed');
      const created: Dispute = {
        id: newId('dp'),
        object: 'dispute',
        amount: options.amount ?? target.amount,
        balance_transactions: [],
        charge: target.id,
        created: nowSeconds(),
        currency: target.currency,
        enhanced_eligibility_types: [],
        evidence: { customer_email_address: null, product_description: null, uncategorized_text: null },
        evidence_details: { due_by: nowSeconds() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: target.payment_intent,
        reason: options.reason ?? 'fraudulent',
        status: 'needs_response',
      };
      data.disputes[created.id] = created;
      target.disputed = true;
      return { dispute: created, events: [eventLog(state, account)('charge.dispute.created', created)] };
    },
  };
};

export type ConnectPayments = ReturnType<typeof connectPayments>;

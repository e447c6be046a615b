import Stripe from 'stripe';
import * as z from 'zod';
import { config, required } from '#functions/config.ts';
import { BadSignatureError, UpstreamError } from '#core/errors.ts';
import type { BillingEvent, PaymentEvents } from '#core/billing/ports.ts';
import type { Payments } from '#core/ports.ts';
import type { ConnectedAccountState, ConnectEvent, ConnectEvents, ConnectPayments } from '#core/sales/ports.ts';
import { clientPolicies, stripeClientOptions } from '#adapters/client-policy.ts';
import { secretValue } from '#adapters/secrets.ts';

let client: { key: string; stripe: Stripe } | undefined;

/**
 * The official client for an API key, with Stripe's timeout and retries (adapters/client-policy.ts), the same in the
 * cloud and locally; pointed at the local stand-in when STRIPE_API_URL is set.
 */
export const stripeClient = (key: string): Stripe => {
  const { STRIPE_API_URL } = config();
  const local = STRIPE_API_URL ? new URL(STRIPE_API_URL) : undefined;
  return new Stripe(key, {
    telemetry: false,
    ...stripeClientOptions(clientPolicies.stripe),
    ...(local ? { host: local.hostname, port: Number(local.port || 80), protocol: local.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
};

/**
 * The client, made with the API key read from Secrets Manager (adapters/secrets.ts) and made again when the key
 * changes (rotation).
 */
const stripe = async (): Promise<Stripe> => {
  const key = await secretValue(required('STRIPE_API_KEY_SECRET_ID'));
  if (client?.key !== key) client = { key, stripe: stripeClient(key) };
  return client.stripe;
};

const iso = (epochSeconds: number | null | undefined): string | null =>
  epochSeconds ? new Date(epochSeconds * 1000).toISOString() : null;

const id = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]);

/** What we read of a subscription (API 2025+: the period lives on the subscription item). */
const subscriptionObject = z.object({
  id: z.string(),
  customer: id,
  status: z.string(),
  trial_end: z.number().nullable().optional(),
  cancel_at_period_end: z.boolean().optional(),
  current_period_end: z.number().optional(),
  items: z
    .object({ data: z.array(z.object({ price: z.object({ id: z.string() }).optional(), current_period_end: z.number().optional() })) })
    .optional(),
});

const checkoutObject = z.object({
  id: z.string(),
  mode: z.enum(['subscription', 'payment', 'setup']),
  customer: id.nullable().optional(),
  payment_status: z.string(),
});

/** Stripe's event in the product's words. The shapes are parsed: a malformed event is an error, not a guess. */
export const toBillingEvent = (event: { id: string; type: string; created: number; data: { object: unknown } }): BillingEvent => {
  const base = { id: event.id, type: event.type, created: event.created };
  if (event.type.startsWith('customer.subscription.')) {
    const s = subscriptionObject.parse(event.data.object);
    const item = s.items?.data[0];
    return {
      ...base,
      kind: 'subscription',
      subscription: {
        id: s.id,
        customerId: s.customer,
        status: s.status,
        priceId: item?.price?.id ?? null,
        trialEnd: iso(s.trial_end),
        currentPeriodEnd: iso(item?.current_period_end ?? s.current_period_end),
        cancelAtPeriodEnd: s.cancel_at_period_end ?? false,
      },
    };
  }
  if (event.type.startsWith('checkout.session.')) {
    const c = checkoutObject.parse(event.data.object);
    return { ...base, kind: 'checkout', checkout: { sessionId: c.id, mode: c.mode, customerId: c.customer ?? null, paymentStatus: c.payment_status } };
  }
  return { ...base, kind: 'other' };
};

/** Stripe's own errors (network, API) become UPSTREAM_FAILED; the cause goes to the log, not the response. */
const upstream = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      throw Object.assign(new UpstreamError(`The payment provider could not ${what}. Please try again.`), { cause: error });
    }
    throw error;
  }
};

export const stripePayments = (): Payments => ({
  createCustomer: ({ userId, email }) =>
    upstream('create your billing account', async () => {
      const customer = await (await stripe()).customers.create({ email, metadata: { userId } }, { idempotencyKey: `customer:${userId}` });
      return customer.id;
    }),

  createCheckoutSession: (input) =>
    upstream('start the checkout', async () => {
      const session = await (await stripe()).checkout.sessions.create(
        {
          mode: input.mode,
          customer: input.customerId,
          client_reference_id: input.userId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: `${input.successUrl}${input.successUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: input.cancelUrl,
          metadata: input.metadata,
          ...(input.expiresAt ? { expires_at: Math.floor(input.expiresAt.getTime() / 1000) } : {}),
          ...(input.mode === 'subscription'
            ? { subscription_data: { metadata: { userId: input.userId }, ...(input.trialDays ? { trial_period_days: input.trialDays } : {}) } }
            : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new UpstreamError('The payment provider returned no checkout page.');
      return { id: session.id, url: session.url };
    }),

  expireCheckoutSession: (sessionId) =>
    upstream('close the earlier checkout', async () => {
      const api = await stripe();
      const session = await api.checkout.sessions.retrieve(sessionId);
      // Only an open session can be expired; a completed or expired one is already closed.
      if (session.status === 'open') await api.checkout.sessions.expire(sessionId);
    }),

  createPortalSession: ({ customerId, returnUrl, idempotencyKey }) =>
    upstream('open the billing portal', async () => {
      const session = await (await stripe()).billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }, { idempotencyKey });
      return { url: session.url };
    }),
});

/**
 * A platform subscription ended now (DELETE /v1/subscriptions/<id>: no period end, no proration), for the account
 * deletion. Read first: one Stripe already ended, or one it no longer knows (resource_missing), is done, so a rerun
 * after a kill, or a stored status behind Stripe's, is no error.
 */
export const cancelSubscriptionNow = (subscriptionId: string): Promise<void> =>
  upstream('cancel the subscription', async () => {
    const api = await stripe();
    try {
      const subscription = await api.subscriptions.retrieve(subscriptionId);
      if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return;
      await api.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `cancel-on-deletion:${subscriptionId}` });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && error.code === 'resource_missing') return;
      throw error;
    }
  });

/** Whether Stripe answered that it does not know the object (deleted already, or never there). */
const isMissing = (error: unknown): boolean => error instanceof Stripe.errors.StripeError && error.code === 'resource_missing';

/**
 * Every open Checkout Session of a platform customer expired (the account deletion): a plan checkout or a credit
 * top-up left open can no longer be paid. One closed meanwhile (paid, or expired by Stripe) is left as it is.
 */
export const expireCustomerCheckouts = (customerId: string): Promise<void> =>
  upstream('close the open checkouts', async () => {
    const api = await stripe();
    for await (const session of api.checkout.sessions.list({ customer: customerId, status: 'open', limit: 100 })) {
      try {
        await api.checkout.sessions.expire(session.id);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        // Stripe refuses to expire a session that is no longer open: closed between the list and the call.
        if ((await api.checkout.sessions.retrieve(session.id)).status === 'open') throw error;
      }
    }
  });

/**
 * The platform customer deleted at Stripe (DELETE /v1/customers/<id>; the account deletion): Stripe drops its email,
 * name and saved cards, and ends any subscription still running. One Stripe no longer knows (a rerun) is done.
 */
export const deleteCustomer = (customerId: string): Promise<void> =>
  upstream('delete the billing account', async () => {
    try {
      await (await stripe()).customers.del(customerId);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  });

/**
 * A course order's Checkout Session expired on the creator's connected account, where it was made (the account
 * deletion: the buyer is gone). One no longer open (paid, expired) or no longer known is left as it is.
 */
export const expireConnectedCheckout = ({ accountId, sessionId }: { accountId: string; sessionId: string }): Promise<void> =>
  upstream('close the course checkout', async () => {
    const api = await stripe();
    try {
      const session = await api.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId });
      if (session.status === 'open') await api.checkout.sessions.expire(sessionId, {}, { stripeAccount: accountId });
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  });

/** Stripe's webhooks, verified with the signing secret only (Stripe.webhooks needs no API key). */
export const stripeEvents = (): PaymentEvents => ({
  parseEvent: async (rawBody, signature) => toBillingEvent(await verifiedEvent('STRIPE_WEBHOOK_SECRET_ID', rawBody, signature)),
});

type RawEvent = { id: string; type: string; created: number; account?: string | null; data: { object: unknown } };

/** The event, once its signature over the raw body holds for the endpoint's secret (5 minutes' tolerance); throws BadSignatureError. */
const verifiedEvent = async (
  secretId: 'STRIPE_WEBHOOK_SECRET_ID' | 'STRIPE_CONNECT_WEBHOOK_SECRET_ID',
  rawBody: string,
  signature: string | undefined,
): Promise<RawEvent> => {
  if (!signature) throw new BadSignatureError('The Stripe-Signature header is missing.');
  const secret = await secretValue(required(secretId));
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret, 300) as unknown as RawEvent;
  } catch {
    throw new BadSignatureError();
  }
};

/** What we read of a connected account (Account object, and `account.updated`'s data.object). */
const accountObject = z.object({
  id: z.string(),
  created: z.number().optional(),
  charges_enabled: z.boolean().optional(),
  payouts_enabled: z.boolean().optional(),
  details_submitted: z.boolean().optional(),
  requirements: z
    .object({ currently_due: z.array(z.string()).nullable().optional(), past_due: z.array(z.string()).nullable().optional() })
    .nullable()
    .optional(),
});

/** What we read of a Checkout Session on a connected account. */
const connectCheckoutObject = z.object({
  id: z.string(),
  payment_status: z.string(),
  amount_total: z.number().nullable().optional(),
  total_details: z.object({ amount_discount: z.number().optional() }).nullable().optional(),
  customer_email: z.string().nullable().optional(),
  customer_details: z.object({ email: z.string().nullable().optional() }).nullable().optional(),
  payment_intent: id.nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});

/** What we read of a membership's subscription (`customer.subscription.*`'s data.object). */
const memberSubscriptionObject = z.object({
  id: z.string(),
  status: z.enum(['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused']),
  customer: id.nullable().optional(),
  cancel_at_period_end: z.boolean().optional(),
  items: z.object({ data: z.array(z.object({ current_period_end: z.number().optional() })) }).optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});

/** Stripe's statuses in the membership's words: an expired first payment never started, a paused one gives nothing. */
const memberStatusOf = (status: z.infer<typeof memberSubscriptionObject>['status']) =>
  status === 'incomplete_expired' ? 'canceled' : status === 'paused' ? 'unpaid' : status;

/** What we read of a refunded charge or a dispute: the PaymentIntent they belong to. */
const reversalObject = z.object({ payment_intent: id.nullable().optional(), refunded: z.boolean().optional() });

const accountState = (account: z.infer<typeof accountObject>): ConnectedAccountState => ({
  chargesEnabled: account.charges_enabled ?? false,
  payoutsEnabled: account.payouts_enabled ?? false,
  detailsSubmitted: account.details_submitted ?? false,
  requirements: [...new Set([...(account.requirements?.past_due ?? []), ...(account.requirements?.currently_due ?? [])])],
});

/** A Connect event in the product's words; the shapes are parsed, a malformed event is an error. */
export const toConnectEvent = (event: RawEvent): ConnectEvent => {
  const base = { id: event.id, type: event.type, created: event.created };
  if (event.type === 'account.updated') {
    const account = accountObject.parse(event.data.object);
    return { ...base, kind: 'account', account: event.account ?? account.id, state: accountState(account) };
  }
  if ((event.type === 'charge.refunded' || event.type === 'charge.dispute.created') && event.account) {
    const reversed = reversalObject.parse(event.data.object);
    if (reversed.payment_intent) {
      return {
        ...base,
        kind: 'reversal',
        account: event.account,
        reversal: {
          paymentIntentId: reversed.payment_intent,
          to: event.type === 'charge.refunded' ? 'refunded' : 'disputed',
          // A partial refund leaves the sale standing; a dispute takes it whole.
          complete: event.type === 'charge.dispute.created' || reversed.refunded === true,
        },
      };
    }
  }
  if (event.type.startsWith('customer.subscription.') && event.account) {
    const s = memberSubscriptionObject.parse(event.data.object);
    const membershipId = s.metadata?.['membershipId'];
    if (membershipId) {
      const periodEnd = s.items?.data[0]?.current_period_end;
      return {
        ...base,
        kind: 'subscription',
        account: event.account,
        membershipId,
        subscriptionId: s.id,
        state: {
          // A deleted subscription is over whatever its last status said.
          status: event.type === 'customer.subscription.deleted' ? 'canceled' : memberStatusOf(s.status),
          currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000).toISOString() : null,
          cancelAtPeriodEnd: s.cancel_at_period_end ?? false,
          customerId: s.customer ?? null,
        },
      };
    }
  }
  if (event.type === 'checkout.session.completed' && event.account) {
    const c = connectCheckoutObject.extend({ mode: z.string().optional(), subscription: id.nullable().optional(), customer: id.nullable().optional() }).parse(event.data.object);
    const membershipId = c.metadata?.['membershipId'];
    if (c.mode === 'subscription' && membershipId && c.subscription) {
      return {
        ...base,
        kind: 'membership-checkout',
        account: event.account,
        membershipId,
        subscriptionId: c.subscription,
        customerId: c.customer ?? null,
        email: c.customer_details?.email ?? c.customer_email ?? null,
      };
    }
  }
  if (event.type.startsWith('checkout.session.') && event.account) {
    const c = connectCheckoutObject.parse(event.data.object);
    return {
      ...base,
      kind: 'checkout',
      account: event.account,
      checkout: {
        sessionId: c.id,
        orderId: c.metadata?.['orderId'] ?? null,
        paymentStatus: c.payment_status,
        amountTotal: c.amount_total ?? 0,
        amountDiscount: c.total_details?.amount_discount ?? 0,
        email: c.customer_details?.email ?? c.customer_email ?? null,
        paymentIntentId: c.payment_intent ?? null,
      },
    };
  }
  return { ...base, kind: 'other', account: event.account ?? null };
};

/** Connect through the platform's API key: Standard accounts and their hosted onboarding links. */
export const stripeConnect = (): ConnectPayments => ({
  createConnectedAccount: ({ userId, email }) =>
    upstream('create your payment account', async () => {
      // One account per creator: two first clicks at once get the same account from Stripe.
      const account = accountObject.parse(
        await (await stripe()).accounts.create({ type: 'standard', email, metadata: { userId } }, { idempotencyKey: `connect-account:${userId}` }),
      );
      return { accountId: account.id, state: accountState(account), eventAt: account.created ?? 0 };
    }),

  createAccountLink: ({ accountId, returnUrl, refreshUrl }) =>
    upstream('open the payment account onboarding', async () => {
      const link = await (await stripe()).accountLinks.create({ account: accountId, return_url: returnUrl, refresh_url: refreshUrl, type: 'account_onboarding' });
      return { url: link.url };
    }),

  createCourseCheckout: (input) =>
    upstream('start the checkout', async () => {
      const metadata = { orderId: input.orderId, courseId: input.courseId };
      // A direct charge on the creator's account (Stripe-Account), with no application fee: the creator keeps 100%.
      const session = await (await stripe()).checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: input.amount, product_data: { name: input.courseTitle } } }],
          ...(input.email ? { customer_email: input.email } : {}),
          ...(input.promotionCodeId ? { discounts: [{ promotion_code: input.promotionCodeId }] } : {}),
          client_reference_id: input.orderId,
          metadata,
          payment_intent_data: { metadata },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
        },
        { stripeAccount: input.accountId, idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new UpstreamError('The payment provider returned no checkout page.');
      return { id: session.id, url: session.url };
    }),

  createMembershipCheckout: (input) =>
    upstream('start the checkout', async () => {
      const metadata = { membershipId: input.membershipId };
      // A subscription on the creator's own account (Stripe-Account), with no application fee: the creator keeps 100%.
      const session = await (await stripe()).checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: 'gbp', unit_amount: input.amount, recurring: { interval: input.interval }, product_data: { name: input.title } },
            },
          ],
          ...(input.email ? { customer_email: input.email } : {}),
          metadata,
          subscription_data: { metadata },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        { stripeAccount: input.accountId, idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new UpstreamError('The payment provider returned no checkout page.');
      return { id: session.id, url: session.url };
    }),

  createPortalSession: ({ accountId, customerId, returnUrl }) =>
    upstream('open the billing portal', async () => {
      const portal = await (await stripe()).billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }, { stripeAccount: accountId });
      return { url: portal.url };
    }),

  refundPayment: ({ accountId, paymentIntentId, idempotencyKey }) =>
    upstream('refund the payment', async () => {
      await (await stripe()).refunds.create({ payment_intent: paymentIntentId }, { stripeAccount: accountId, idempotencyKey });
    }),

  createPromotion: (input) =>
    upstream('create the coupon', async () => {
      const api = await stripe();
      const options = { stripeAccount: input.accountId };
      const coupon = await api.coupons.create(
        {
          duration: 'once',
          name: input.code,
          ...(input.kind === 'percent' ? { percent_off: input.value } : { amount_off: input.value, currency: 'gbp' }),
          metadata: { code: input.code },
        },
        { ...options, idempotencyKey: `${input.idempotencyKey}:coupon` },
      );
      const promotion = await api.promotionCodes.create(
        {
          promotion: { type: 'coupon', coupon: coupon.id },
          code: input.code,
          ...(input.maxRedemptions !== null ? { max_redemptions: input.maxRedemptions } : {}),
          ...(input.expiresAt !== null ? { expires_at: Math.floor(Date.parse(input.expiresAt) / 1000) } : {}),
        },
        { ...options, idempotencyKey: `${input.idempotencyKey}:promotion` },
      );
      return { couponId: coupon.id, promotionCodeId: promotion.id };
    }),

  setPromotionActive: ({ accountId, promotionCodeId, active }) =>
    upstream('change the coupon', async () => {
      await (await stripe()).promotionCodes.update(promotionCodeId, { active }, { stripeAccount: accountId });
    }),

  deletePromotion: ({ accountId, couponId }) =>
    upstream('delete the coupon', async () => {
      try {
        await (await stripe()).coupons.del(couponId, {}, { stripeAccount: accountId });
      } catch (error) {
        // Deleted already (a retry): what was asked for is done.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')) throw error;
      }
    }),
});

/** The Connect endpoint's webhooks, verified with its own signing secret (no API key). */
export const stripeConnectEvents = (): ConnectEvents => ({
  parseEvent: async (rawBody, signature) => toConnectEvent(await verifiedEvent('STRIPE_CONNECT_WEBHOOK_SECRET_ID', rawBody, signature)),
});

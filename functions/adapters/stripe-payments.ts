import Stripe from 'stripe';
import * as z from 'zod';
import { config } from '../config.ts';
import { BadSignatureError, UpstreamError } from '../core/errors.ts';
import type { BillingEvent, Payments } from '../core/ports.ts';

let client: Stripe | undefined;

/** The official client; pointed at the local stand-in when STRIPE_API_URL is set. */
const stripe = (): Stripe => {
  if (!client) {
    const { STRIPE_SECRET_KEY, STRIPE_API_URL } = config();
    const local = STRIPE_API_URL ? new URL(STRIPE_API_URL) : undefined;
    client = new Stripe(STRIPE_SECRET_KEY, {
      telemetry: false,
      maxNetworkRetries: local ? 0 : 2,
      timeout: 10_000,
      ...(local ? { host: local.hostname, port: Number(local.port || 80), protocol: local.protocol.replace(':', '') as 'http' | 'https' } : {}),
    });
  }
  return client;
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
  if (event.type === 'checkout.session.completed') {
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
      const customer = await stripe().customers.create({ email, metadata: { userId } }, { idempotencyKey: `customer:${userId}` });
      return customer.id;
    }),

  createCheckoutSession: (input) =>
    upstream('start the checkout', async () => {
      const session = await stripe().checkout.sessions.create(
        {
          mode: input.mode,
          customer: input.customerId,
          client_reference_id: input.userId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: `${input.successUrl}${input.successUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: input.cancelUrl,
          metadata: input.metadata,
          ...(input.mode === 'subscription'
            ? { subscription_data: { metadata: { userId: input.userId }, ...(input.trialDays ? { trial_period_days: input.trialDays } : {}) } }
            : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new UpstreamError('The payment provider returned no checkout page.');
      return { id: session.id, url: session.url };
    }),

  createPortalSession: ({ customerId, returnUrl }) =>
    upstream('open the billing portal', async () => {
      const session = await stripe().billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { url: session.url };
    }),

  parseEvent(rawBody, signature) {
    if (!signature) throw new BadSignatureError('The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = stripe().webhooks.constructEvent(rawBody, signature, config().STRIPE_WEBHOOK_SECRET, 300);
    } catch {
      throw new BadSignatureError();
    }
    return toBillingEvent(event as unknown as Parameters<typeof toBillingEvent>[0]);
  },
});

import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { emptyConnected, type Account, type AccountLinkRecord, type ConnectedData } from './connect-state.ts';
import { standInPrices } from './mode.ts';
import type { CheckoutSession, Customer, Invoice, Metadata, PortalSession, Price, Product, Subscription } from './objects.ts';

export type {
  CheckoutSession,
  Customer,
  Invoice,
  InvoiceLine,
  LineItem,
  Metadata,
  PortalSession,
  Price,
  Product,
  Subscription,
  SubscriptionItem,
  SubscriptionStatus,
} from './objects.ts';

/**
 * The Stripe stand-in's whole state: plain JSON objects shaped like the API's (for the API version the installed
 * `stripe` client pins), kept in one serialisable object so a later issue can persist it.
 * Only the fields the platform reads are kept up to date; the rest carry Stripe's defaults so code typed against
 * `Stripe.*` finds them. The objects a connected account holds too are in objects.ts.
 */

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
  /** Set on events that happened on a connected account (Connect events): they go to the Connect endpoint. */
  account?: string;
}

export interface DeliveryAttempt {
  at: number;
  /** HTTP status of the receiver's answer; absent when the request itself failed. */
  status?: number;
  error?: string;
  ok: boolean;
}

export interface Delivery {
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
}

export interface IdempotentResult {
  method: string;
  path: string;
  /** Canonical form of the request's parameters: same key + other parameters is an idempotency_error. */
  params: string;
  status: number;
  body: string;
}

export interface StripeState {
  products: Record<string, Product>;
  prices: Record<string, Price>;
  customers: Record<string, Customer>;
  checkoutSessions: Record<string, CheckoutSession>;
  subscriptions: Record<string, Subscription>;
  invoices: Record<string, Invoice>;
  portalSessions: Record<string, PortalSession>;
  /** In creation order (object keys keep insertion order), so lists and the event log read oldest first. */
  events: Record<string, StripeEvent>;
  deliveries: Record<string, Delivery>;
  idempotency: Record<string, IdempotentResult>;
  /** Subscriptions whose next invoice will fail (test control). */
  failNextInvoice: Record<string, true>;
  invoiceSequence: number;
  /** Connect: the platform's connected (Standard) accounts, their onboarding links, and each one's own objects. */
  accounts: Record<string, Account>;
  accountLinks: Record<string, AccountLinkRecord>;
  connected: Record<string, ConnectedData>;
}

export const apiVersion: string = Stripe.API_VERSION;

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Stripe-looking ids: a type prefix and random alphanumerics (`cus_Q3x...`). */
export const newId = (prefix: string, length = 24): string => {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return `${prefix}_${out}`;
};

/**
 * The price `price_data` makes (inactive, as Stripe keeps ad-hoc prices): one-time, or recurring every month
 * (`true` or `'month'`) or year (`'year'`, what a creator's yearly membership asks for).
 * The platform's checkouts and those on a connected account build theirs with it.
 */
export const inlinePriceOf = (input: { productId: string; currency: string; amount: number; recurring: boolean | 'month' | 'year' }): Price => ({
  id: newId('price'),
  object: 'price',
  active: false,
  billing_scheme: 'per_unit',
  created: nowSeconds(),
  currency: input.currency.toLowerCase(),
  custom_unit_amount: null,
  livemode: false,
  lookup_key: null,
  metadata: {},
  nickname: null,
  product: input.productId,
  recurring: input.recurring
    ? { interval: input.recurring === 'year' ? 'year' : 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' }
    : null,
  tax_behavior: 'unspecified',
  tiers_mode: null,
  transform_quantity: null,
  type: input.recurring ? 'recurring' : 'one_time',
  unit_amount: input.amount,
  unit_amount_decimal: String(input.amount),
});

/** Adds calendar months in UTC, clamping the day like Stripe's billing anchors (31 Jan + 1 month = 28/29 Feb). */
export const addMonths = (epochSeconds: number, months: number): number => {
  const date = new Date(epochSeconds * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
};

const product = (id: string, name: string, description: string, created: number): Product => ({
  id,
  object: 'product',
  active: true,
  name,
  description,
  created,
  livemode: false,
  metadata: {},
});

const price = (
  id: string,
  productId: string,
  unitAmount: number,
  options: { recurring: boolean; nickname: string; lookupKey: string; metadata?: Metadata },
  created: number,
): Price => ({
  id,
  object: 'price',
  active: true,
  billing_scheme: 'per_unit',
  created,
  currency: 'gbp',
  custom_unit_amount: null,
  livemode: false,
  lookup_key: options.lookupKey,
  metadata: options.metadata ?? {},
  nickname: options.nickname,
  product: productId,
  recurring: options.recurring
    ? { interval: 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' }
    : null,
  tax_behavior: 'unspecified',
  tiers_mode: null,
  transform_quantity: null,
  type: options.recurring ? 'recurring' : 'one_time',
  unit_amount: unitAmount,
  unit_amount_decimal: String(unitAmount),
});

/** The fixed catalogue (SPEC.md: Starter £28/month with the trial set per session, Pro £67/month, 100 credits £5). */
export const seedCatalogue = (created = nowSeconds()): Pick<StripeState, 'products' | 'prices'> => {
  const products = [
    product('prod_starter', 'Starter', 'Starter plan: unlimited courses, progress tracking, basic analytics.', created),
    product('prod_pro', 'Pro', 'Pro plan: everything in Starter plus branding, reporting and affiliates.', created),
    product('prod_credits_100', '100 AI credits', 'A top-up of 100 AI credits.', created),
  ];
  const prices = [
    price(standInPrices.starter, 'prod_starter', 2800, {
      recurring: true,
      nickname: 'Starter monthly',
      lookupKey: 'starter_monthly',
      metadata: { planType: 'starter' },
    }, created),
    price(standInPrices.pro, 'prod_pro', 6700, {
      recurring: true,
      nickname: 'Pro monthly',
      lookupKey: 'pro_monthly',
      metadata: { planType: 'pro' },
    }, created),
    price(standInPrices.credits, 'prod_credits_100', 500, {
      recurring: false,
      nickname: '100 AI credits',
      lookupKey: 'credits_100',
      metadata: { credits: '100' },
    }, created),
  ];
  return {
    products: Object.fromEntries(products.map((item) => [item.id, item])),
    prices: Object.fromEntries(prices.map((item) => [item.id, item])),
  };
};

export const createState = (): StripeState => ({
  ...seedCatalogue(),
  customers: {},
  checkoutSessions: {},
  subscriptions: {},
  invoices: {},
  portalSessions: {},
  events: {},
  deliveries: {},
  idempotency: {},
  failNextInvoice: {},
  invoiceSequence: 0,
  accounts: {},
  accountLinks: {},
  connected: {},
});

/**
 * A saved state to continue from: collections added since it was saved start empty (also inside each connected
 * account's namespace), and the seeded catalogue is always the current one (ad-hoc prices are kept).
 */
export const continueFrom = (saved: StripeState): StripeState => {
  const seeded = seedCatalogue();
  const connected = Object.fromEntries(
    Object.entries(saved.connected ?? {}).map(([account, data]) => [account, { ...emptyConnected(), ...data }]),
  );
  return {
    ...createState(),
    ...saved,
    products: { ...saved.products, ...seeded.products },
    prices: { ...saved.prices, ...seeded.prices },
    connected,
  };
};

/** Applies a metadata update the Stripe way: keys merge, an empty string deletes a key, `metadata=''` clears all. */
export const mergeMetadata = (current: Metadata, update: Record<string, unknown> | string | undefined): Metadata => {
  if (update === undefined) return current;
  if (typeof update === 'string') return update === '' ? {} : current;
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '' || value === null) delete next[key];
    else next[key] = String(value);
  }
  return next;
};

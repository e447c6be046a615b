import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { emptyConnected, type Account, type AccountLinkRecord, type ConnectedData } from './connect-state.ts';
import { standInPrices } from './mode.ts';
import type { CheckoutSession, Metadata, Price, Product } from './objects.ts';

export type { CheckoutSession, LineItem, Metadata, Price, Product } from './objects.ts';

/**
 * The Stripe stand-in's whole state: plain JSON objects shaped like the API's (for the API version the installed
 * `stripe` client pins), kept in one serialisable object so a later issue can persist it.
 * Only the fields the platform reads are kept up to date; the rest carry Stripe's defaults so code typed against
 * `Stripe.*` finds them. The objects a connected account holds too are in objects.ts.
 */

export interface Customer {
  id: string;
  object: 'customer';
  balance: number;
  created: number;
  currency: string | null;
  default_source: null;
  delinquent: boolean;
  description: string | null;
  email: string | null;
  invoice_prefix: string;
  invoice_settings: { custom_fields: null; default_payment_method: null; footer: null; rendering_options: null };
  livemode: false;
  metadata: Metadata;
  name: string | null;
  phone: string | null;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: 'none';
  test_clock: null;
}

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  created: number;
  current_period_end: number;
  current_period_start: number;
  discounts: string[];
  metadata: Metadata;
  price: Price;
  quantity: number;
  subscription: string;
  tax_rates: [];
}

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'incomplete';

export interface Subscription {
  id: string;
  object: 'subscription';
  billing_cycle_anchor: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null };
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  default_payment_method: string | null;
  description: string | null;
  discounts: string[];
  ended_at: number | null;
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; total_count: number; url: string };
  latest_invoice: string | null;
  livemode: false;
  metadata: Metadata;
  start_date: number;
  status: SubscriptionStatus;
  trial_end: number | null;
  trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } };
  trial_start: number | null;
}

export interface InvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  invoice: string;
  livemode: false;
  metadata: Metadata;
  parent: {
    type: 'subscription_item_details';
    subscription_item_details: { subscription: string; subscription_item: string; proration: false };
  };
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string }; unit_amount_decimal: string };
  quantity: number;
}

export interface Invoice {
  id: string;
  object: 'invoice';
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  billing_reason: 'subscription_create' | 'subscription_cycle';
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  customer_email: string | null;
  hosted_invoice_url: string | null;
  lines: { object: 'list'; data: InvoiceLine[]; has_more: false; total_count: number; url: string };
  livemode: false;
  metadata: Metadata;
  next_payment_attempt: number | null;
  number: string;
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { subscription: string; metadata: Metadata };
  };
  period_end: number;
  period_start: number;
  status: 'draft' | 'open' | 'paid';
  status_transitions: { finalized_at: number | null; paid_at: number | null; voided_at: null };
  subtotal: number;
  total: number;
}

export interface PortalSession {
  id: string;
  object: 'billing_portal.session';
  configuration: string;
  created: number;
  customer: string;
  livemode: false;
  locale: null;
  on_behalf_of: null;
  return_url: string | null;
  url: string;
}

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
 * The price `price_data` makes (inactive, as Stripe keeps ad-hoc prices): one-time, or monthly when `recurring`.
 * The platform's checkouts and those on a connected account build theirs with it.
 */
export const inlinePriceOf = (input: { productId: string; currency: string; amount: number; recurring: boolean }): Price => ({
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
  recurring: input.recurring ? { interval: 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' } : null,
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

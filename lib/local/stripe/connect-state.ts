import type { CheckoutSession, Customer, Invoice, LineItem, Metadata, PortalSession, Price, Product, Subscription } from './objects.ts';

/**
 * Stripe Connect in the stand-in's state: Standard accounts connected to the platform, their onboarding links, and
 * what happens on each account (direct charges). Objects are shaped like the API's for the pinned version; only the
 * fields the platform reads are kept up to date, the rest carry Stripe's defaults.
 *
 * Everything that belongs to a connected account lives in that account's own namespace (`connected[acct_...]`), so
 * scoping is structural: a request without the account's `Stripe-Account` header cannot reach it.
 */

export interface AccountRequirements {
  alternatives: [];
  current_deadline: number | null;
  currently_due: string[];
  disabled_reason: string | null;
  errors: [];
  eventually_due: string[];
  past_due: string[];
  pending_verification: string[];
}

export interface BankAccount {
  id: string;
  object: 'bank_account';
  account: string;
  account_holder_name: string | null;
  account_holder_type: string | null;
  bank_name: string;
  country: string;
  currency: string;
  default_for_currency: boolean;
  last4: string;
  metadata: Metadata;
  routing_number: string;
  status: 'new';
}

export interface Account {
  id: string;
  object: 'account';
  business_profile: {
    mcc: string | null;
    name: string | null;
    product_description: string | null;
    support_address: null;
    support_email: string | null;
    support_phone: string | null;
    support_url: string | null;
    url: string | null;
  };
  business_type: string | null;
  capabilities: { card_payments: 'active' | 'inactive' | 'pending'; transfers: 'active' | 'inactive' | 'pending' };
  charges_enabled: boolean;
  controller: {
    fees: { payer: 'account' };
    is_controller: true;
    losses: { payments: 'stripe' };
    requirement_collection: 'stripe';
    stripe_dashboard: { type: 'full' };
    type: 'application';
  };
  country: string;
  created: number;
  default_currency: string;
  details_submitted: boolean;
  email: string | null;
  external_accounts: { object: 'list'; data: BankAccount[]; has_more: false; total_count: number; url: string };
  future_requirements: AccountRequirements;
  metadata: Metadata;
  payouts_enabled: boolean;
  requirements: AccountRequirements;
  tos_acceptance: { date: number | null; ip: string | null; user_agent: string | null };
  type: 'standard';
}

/** An Account Link as stored: Stripe's answer has no id; the stand-in keys it by the token in its URL. */
export interface AccountLinkRecord {
  token: string;
  object: 'account_link';
  account: string;
  created: number;
  expires_at: number;
  refresh_url: string;
  return_url: string;
  type: 'account_onboarding';
  url: string;
  /** new: never opened; opened: its page was shown (a second visit goes to refresh_url); submitted: used up. */
  status: 'new' | 'opened' | 'submitted';
}

export interface Coupon {
  id: string;
  object: 'coupon';
  amount_off: number | null;
  /** Stripe returns it only when asked (`expand[]=applies_to`); kept here and shown when set. */
  applies_to?: { products: string[] };
  created: number;
  currency: string | null;
  duration: 'once' | 'forever' | 'repeating';
  duration_in_months: number | null;
  livemode: false;
  max_redemptions: number | null;
  metadata: Metadata;
  name: string | null;
  percent_off: number | null;
  redeem_by: number | null;
  times_redeemed: number;
  valid: boolean;
}

export interface PromotionCode {
  id: string;
  object: 'promotion_code';
  active: boolean;
  code: string;
  created: number;
  customer: null;
  customer_account: null;
  expires_at: number | null;
  livemode: false;
  max_redemptions: number | null;
  metadata: Metadata;
  promotion: { coupon: string; type: 'coupon' };
  restrictions: {
    first_time_transaction: boolean;
    minimum_amount: number | null;
    minimum_amount_currency: string | null;
  };
  times_redeemed: number;
}

export interface ConnectLineItem extends LineItem {
  amount_discount: number;
  amount_tax: 0;
}

/** A Checkout Session on a connected account: Stripe's fields for discounts and the buyer, plus private bookkeeping. */
export interface ConnectCheckoutSession extends CheckoutSession {
  customer_creation: 'if_required';
  customer_details: {
    address: null;
    business_name: null;
    email: string | null;
    individual_name: null;
    name: string | null;
    phone: null;
    tax_exempt: 'none';
    tax_ids: [];
  } | null;
  discounts: { coupon: string | null; promotion_code: string | null }[];
  total_details: { amount_discount: number; amount_shipping: 0; amount_tax: 0 };
  line_items_data: ConnectLineItem[];
  /** Not part of Stripe's object (never rendered): what paying the session needs. */
  connect_data: {
    account: string;
    coupon: string | null;
    promotion_code: string | null;
    payment_intent_data: { application_fee_amount: number | null; description: string | null; metadata: Metadata };
  };
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  application: null;
  application_fee_amount: number | null;
  automatic_payment_methods: null;
  canceled_at: null;
  cancellation_reason: null;
  capture_method: 'automatic_async';
  client_secret: string;
  confirmation_method: 'automatic';
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  last_payment_error: null;
  latest_charge: string | null;
  livemode: false;
  metadata: Metadata;
  next_action: null;
  on_behalf_of: null;
  payment_method: string;
  payment_method_types: string[];
  receipt_email: string | null;
  setup_future_usage: null;
  shipping: null;
  statement_descriptor: null;
  statement_descriptor_suffix: null;
  status: 'succeeded';
  transfer_data: null;
  transfer_group: null;
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  application: null;
  application_fee: string | null;
  application_fee_amount: number | null;
  balance_transaction: string;
  billing_details: { address: null; email: string | null; name: string | null; phone: null; tax_id: null };
  calculated_statement_descriptor: string;
  captured: boolean;
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  disputed: boolean;
  failure_code: null;
  failure_message: null;
  fraud_details: Record<string, never>;
  livemode: false;
  metadata: Metadata;
  on_behalf_of: null;
  outcome: {
    network_status: 'approved_by_network';
    reason: null;
    risk_level: 'normal';
    seller_message: string;
    type: 'authorized';
  };
  paid: boolean;
  payment_intent: string;
  payment_method: string;
  payment_method_details: {
    type: 'card';
    card: { brand: 'visa'; country: 'US'; exp_month: number; exp_year: number; funding: 'credit'; last4: '4242' };
  };
  receipt_email: string | null;
  receipt_number: null;
  receipt_url: string;
  refunded: boolean;
  review: null;
  shipping: null;
  source_transfer: null;
  statement_descriptor: null;
  statement_descriptor_suffix: null;
  status: 'succeeded';
  transfer_data: null;
  transfer_group: null;
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  customer: null;
  customer_account: null;
  metadata: Metadata;
  payment_intent: string;
  payment_method: string;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'succeeded';
  transfer_reversal: null;
}

export interface Dispute {
  id: string;
  object: 'dispute';
  amount: number;
  balance_transactions: [];
  charge: string;
  created: number;
  currency: string;
  enhanced_eligibility_types: [];
  evidence: Record<string, null>;
  evidence_details: { due_by: number; has_evidence: false; past_due: false; submission_count: 0 };
  is_charge_refundable: boolean;
  livemode: false;
  metadata: Metadata;
  payment_intent: string;
  reason: string;
  status: 'needs_response';
}

/**
 * Stripe Billing on a connected account (a creator's memberships): the platform's own billing objects, kept per
 * account. Subscription-mode sessions live here, payment-mode ones in `checkoutSessions` above.
 */
export interface ConnectedBilling {
  customers: Record<string, Customer>;
  checkoutSessions: Record<string, CheckoutSession>;
  subscriptions: Record<string, Subscription>;
  invoices: Record<string, Invoice>;
  portalSessions: Record<string, PortalSession>;
  failNextInvoice: Record<string, true>;
  invoiceSequence: number;
}

export const emptyBilling = (): ConnectedBilling => ({
  customers: {},
  checkoutSessions: {},
  subscriptions: {},
  invoices: {},
  portalSessions: {},
  failNextInvoice: {},
  invoiceSequence: 0,
});

/** One connected account's objects. */
export interface ConnectedData {
  billing: ConnectedBilling;
  products: Record<string, Product>;
  prices: Record<string, Price>;
  checkoutSessions: Record<string, ConnectCheckoutSession>;
  paymentIntents: Record<string, PaymentIntent>;
  charges: Record<string, Charge>;
  refunds: Record<string, Refund>;
  disputes: Record<string, Dispute>;
  coupons: Record<string, Coupon>;
  promotionCodes: Record<string, PromotionCode>;
}

export const emptyConnected = (): ConnectedData => ({
  billing: emptyBilling(),
  products: {},
  prices: {},
  checkoutSessions: {},
  paymentIntents: {},
  charges: {},
  refunds: {},
  disputes: {},
  coupons: {},
  promotionCodes: {},
});

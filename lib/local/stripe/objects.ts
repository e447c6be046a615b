/**
 * The Stripe objects the platform's account and each connected account both hold (state.ts, connect-state.ts): plain
 * JSON shaped like the API's for the pinned version. Only the fields the platform reads are kept up to date.
 */
export type Metadata = Record<string, string>;

export interface Product {
  id: string;
  object: 'product';
  active: boolean;
  name: string;
  description: string | null;
  created: number;
  livemode: false;
  metadata: Metadata;
}

export interface Price {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  custom_unit_amount: null;
  livemode: false;
  lookup_key: string | null;
  metadata: Metadata;
  nickname: string | null;
  product: string;
  recurring: {
    interval: 'month';
    interval_count: number;
    meter: null;
    trial_period_days: null;
    usage_type: 'licensed';
  } | null;
  tax_behavior: 'unspecified';
  tiers_mode: null;
  transform_quantity: null;
  type: 'recurring' | 'one_time';
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface LineItem {
  id: string;
  object: 'item';
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  description: string;
  price: Price;
  quantity: number;
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: string | null;
  customer_email: string | null;
  expires_at: number;
  invoice: string | null;
  livemode: false;
  metadata: Metadata;
  mode: 'payment' | 'subscription';
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  success_url: string | null;
  ui_mode: 'hosted';
  url: string | null;
  /** Not expanded by default in Stripe either: read through `GET .../line_items` or `expand[]=line_items`. */
  line_items_data: LineItem[];
  /** Kept for the subscription the session creates. */
  subscription_data: { trial_period_days: number | null; metadata: Metadata };
}

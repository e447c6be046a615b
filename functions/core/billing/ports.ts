/**
 * The ports only the use cases of core/billing use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/** Stripe's events, reduced to what the product reads (the adapter parses and verifies). */
export type BillingEvent =
  | { id: string; created: number; type: string; kind: 'subscription'; subscription: BillingSubscription }
  | { id: string; created: number; type: string; kind: 'checkout'; checkout: BillingCheckout }
  | { id: string; created: number; type: string; kind: 'other' };

export interface BillingSubscription {
  id: string;
  customerId: string;
  status: string;
  priceId: string | null;
  trialEnd: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

export interface BillingCheckout {
  sessionId: string;
  mode: 'subscription' | 'payment' | 'setup';
  customerId: string | null;
  paymentStatus: string;
}

/** Stripe's webhooks: the signature checked with the signing secret (no API key needed). */
export interface PaymentEvents {
  /** Verifies the signature over the raw body first; throws BadSignatureError. */
  parseEvent(rawBody: string, signature: string | undefined): Promise<BillingEvent>;
}

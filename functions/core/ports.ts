import type { Role } from '../contracts/common.ts';

/** The interfaces core needs. Adapters in functions/data and functions/adapters implement them. */

export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A new, unique, roughly time-ordered id. */
  newId(): string;
}

export interface User {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

export interface UserRepository {
  getUser(id: string): Promise<User | undefined>;
  getUserIdByEmail(email: string): Promise<string | undefined>;
  /** Writes the profile, reserves the email and moves the platform counters in one transaction. Throws ConflictError when the id or email is taken. */
  createUser(user: User): Promise<void>;
}

/** The identity provider (Cognito). */
export interface Directory {
  /** Creates a sign-in account; with `password` it is permanent, otherwise the provider sends nothing and the caller invites. Returns the user's stable id (sub) and username. */
  createAccount(input: { email: string; password?: string; temporaryPassword?: string }): Promise<{ id: string; username: string }>;
  addToGroup(username: string, role: Role): Promise<void>;
}

/* ---------- Billing and credits ---------- */

/** A subscription as Stripe reports it, kept per user. `status` is Stripe's own word (trialing, active, ...). */
export interface StoredSubscription {
  userId: string;
  subscriptionId: string;
  customerId: string;
  status: string;
  tier: 'starter' | 'pro' | null;
  trialEnd: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** Stripe `event.created` (epoch seconds) and tie-break rank of the last applied event: older ones are ignored. */
  lastEventAt: number;
  lastEventRank: number;
  updatedAt: string;
}

export interface CreditAccount {
  userId: string;
  creditsRemaining: number;
  creditsUsed: number;
  monthlyAllocation: number;
  planType: 'starter' | 'pro';
  billingPeriodEnd: string;
}

export interface LedgerEntry {
  actionType: string;
  credits: number;
  createdAt: string;
  description?: string;
}

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

export interface Payments {
  createCustomer(input: { userId: string; email: string }): Promise<string>;
  createCheckoutSession(input: {
    mode: 'subscription' | 'payment';
    customerId: string;
    userId: string;
    priceId: string;
    trialDays?: number;
    successUrl: string;
    cancelUrl: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<{ id: string; url: string }>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Verifies the signature over the raw body first; throws BadSignatureError. */
  parseEvent(rawBody: string, signature: string | undefined): BillingEvent;
}

/** Counter deltas, e.g. { subs_trialing: -1, subs_active: 1 }: moved in the same transaction as the change. */
export type CounterDeltas = Record<string, number>;

export interface CreditGrant {
  account: CreditAccount;
  /** Ledger entry for the grant (its credits are the starting balance). */
  entry: LedgerEntry;
  key: string;
}

export interface BillingRepository {
  getCustomerId(userId: string): Promise<string | undefined>;
  /** Records user <-> customer both ways; a second call for the same pair is a no-op. */
  saveCustomer(userId: string, customerId: string): Promise<void>;
  getUserIdByCustomer(customerId: string): Promise<string | undefined>;
  getSubscription(userId: string): Promise<StoredSubscription | undefined>;
  savePendingPurchase(input: { sessionId: string; userId: string; credits: number; pricePence: number; createdAt: string }): Promise<void>;
  getPendingPurchase(sessionId: string): Promise<{ userId: string; credits: number; status: 'pending' | 'granted' } | undefined>;
  eventSeen(eventId: string): Promise<boolean>;
  /**
   * One transaction: the event record (once), the subscription (only if `before` is still what is stored), the
   * counters and the credit account changes. 'duplicate' when the event was already applied, 'changed' when the
   * stored subscription moved meanwhile (the caller re-reads and decides again).
   */
  applySubscriptionEvent(input: {
    event: { id: string; type: string };
    before: StoredSubscription | undefined;
    after: StoredSubscription;
    counters: CounterDeltas;
    creditGrant?: CreditGrant;
    creditPlan?: { planType: 'starter' | 'pro'; monthlyAllocation: number };
  }): Promise<'applied' | 'duplicate' | 'changed'>;
  /** One transaction: the event record, the purchase marked granted, the balance and its ledger row. */
  grantPurchase(input: {
    event: { id: string; type: string };
    sessionId: string;
    userId: string;
    entry: LedgerEntry;
    key: string;
  }): Promise<'applied' | 'duplicate' | 'no-account'>;
  /** Records an event that changes nothing, so that a redelivery is recognised. */
  recordEvent(event: { id: string; type: string }): Promise<'applied' | 'duplicate'>;
}

export interface CreditRepository {
  getAccount(userId: string): Promise<CreditAccount | undefined>;
  lastTransaction(userId: string): Promise<LedgerEntry | undefined>;
  /**
   * One transaction: balance - credits (only if the balance covers it), the idempotency guard (only once per key)
   * and the ledger row.
   */
  spend(input: { userId: string; entry: LedgerEntry; key: string; requestHash: string }): Promise<'spent' | 'insufficient' | 'no-account' | 'replayed' | 'key-reused'>;
  /** Gives credits back (a failed generation): keyed, so a retried refund applies once. */
  credit(input: { userId: string; entry: LedgerEntry; key: string }): Promise<'credited' | 'replayed' | 'no-account'>;
  /** Accounts whose period ended at or before `now`, one page at a time. */
  listDueForReset(now: string, cursor?: string): Promise<{ accounts: CreditAccount[]; cursor?: string }>;
  /**
   * One transaction: the account moves from `seen` to `next` (only if it is still `seen`: a spend in between makes it
   * 'changed'), the period guard (once) and the ledger row.
   */
  reset(input: { seen: CreditAccount; next: CreditAccount; entry: LedgerEntry; key: string }): Promise<'reset' | 'already' | 'changed'>;
  /** Every ledger row of a user, oldest first (audits and tests). */
  ledger(userId: string): Promise<LedgerEntry[]>;
}

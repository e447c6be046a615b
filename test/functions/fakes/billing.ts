import type { BillingRepository, OpenCheckout, OutboxEmail, StoredSubscription } from '#core/ports.ts';
import { copy, withHooks } from './hooks.ts';
import { hasGuard, type MemoryCredits, memoryCredits, writeLedger } from './credits.ts';

interface Purchase {
  userId: string;
  credits: number;
  pricePence: number;
  createdAt: string;
  status: 'pending' | 'granted' | 'failed';
}

/**
 * Customers, subscriptions, the checkout slot, purchases and processed events, with the conditions of
 * functions/data/billing.ts: an event applies once, a subscription moves only from what the caller read, a claimed
 * checkout slot refuses a second claim, a purchase is granted or failed once. Credit accounts live in `credits`
 * (the same table in the real thing): a subscription event opens or re-plans them in the same transaction.
 */
export const memoryBilling = (credits: MemoryCredits = memoryCredits()) => {
  const { tables } = credits;
  const customers = new Map<string, string>();
  const customerUsers = new Map<string, string>();
  const subscriptions = new Map<string, StoredSubscription>();
  const checkouts = new Map<string, OpenCheckout>();
  const purchases = new Map<string, Purchase>();
  const events = new Map<string, string>();
  const counters: Record<string, number> = {};
  const outbox: OutboxEmail[] = [];

  const repo = withHooks<BillingRepository>({
    async getCustomerId(userId) {
      return customers.get(userId);
    },

    async saveCustomer(userId, customerId) {
      // The real transaction is conditional on the user having no customer yet: the whole pair is written once.
      if (customers.has(userId)) return;
      customers.set(userId, customerId);
      customerUsers.set(customerId, userId);
    },

    async getUserIdByCustomer(customerId) {
      return customerUsers.get(customerId);
    },

    async getSubscription(userId) {
      const sub = subscriptions.get(userId);
      return sub && copy(sub);
    },

    async getOpenCheckout(userId) {
      const slot = checkouts.get(userId);
      return slot && copy(slot);
    },

    async claimCheckout({ userId, claim, replacing }) {
      const slot = checkouts.get(userId);
      const free = replacing ? slot?.claimId === replacing : slot === undefined;
      if (!free) return 'taken';
      checkouts.set(userId, copy(claim));
      return 'claimed';
    },

    async openCheckout({ userId, checkout }) {
      if (checkouts.get(userId)?.claimId !== checkout.claimId) return 'lost';
      checkouts.set(userId, copy(checkout));
      return 'opened';
    },

    async releaseCheckout(input) {
      const slot = checkouts.get(input.userId);
      const ours = 'claimId' in input ? slot?.claimId === input.claimId : slot?.status === 'open' && slot.sessionId === input.sessionId;
      if (ours) checkouts.delete(input.userId);
    },

    async savePendingPurchase({ sessionId, ...purchase }) {
      if (!purchases.has(sessionId)) purchases.set(sessionId, { ...purchase, status: 'pending' });
    },

    async getPendingPurchase(sessionId) {
      const purchase = purchases.get(sessionId);
      return purchase && { userId: purchase.userId, credits: purchase.credits, status: purchase.status };
    },

    async eventSeen(eventId) {
      return events.has(eventId);
    },

    async recordEvent(event) {
      if (events.has(event.id)) return 'duplicate';
      events.set(event.id, event.type);
      return 'applied';
    },

    async applySubscriptionEvent({ event, before, after, counters: deltas, creditGrant, creditPlan, outbox: owed }) {
      if (events.has(event.id)) return 'duplicate';
      const stored = subscriptions.get(after.userId);
      const subscriptionHolds = before
        ? stored !== undefined && stored.lastEventAt === before.lastEventAt && stored.lastEventRank === before.lastEventRank
        : stored === undefined;
      const creditHolds = creditGrant
        ? !tables.accounts.has(creditGrant.account.userId) && !hasGuard(tables, creditGrant.account.userId, creditGrant.key)
        : creditPlan
          ? tables.accounts.has(after.userId)
          : true;
      if (!subscriptionHolds || !creditHolds) return 'changed';
      events.set(event.id, event.type);
      subscriptions.set(after.userId, copy(after));
      for (const [name, delta] of Object.entries(deltas)) counters[name] = (counters[name] ?? 0) + delta;
      if (owed) outbox.push(copy(owed));
      if (creditGrant) {
        tables.accounts.set(creditGrant.account.userId, copy(creditGrant.account));
        writeLedger(tables, creditGrant.account.userId, creditGrant.entry, creditGrant.key);
      } else if (creditPlan) {
        Object.assign(tables.accounts.get(after.userId)!, { planType: creditPlan.planType, monthlyAllocation: creditPlan.monthlyAllocation });
      }
      return 'applied';
    },

    async grantPurchase({ event, sessionId, userId, entry, key, openAccount }) {
      const purchase = purchases.get(sessionId);
      if (events.has(event.id) || purchase?.status !== 'pending' || hasGuard(tables, userId, key)) return 'duplicate';
      const account = tables.accounts.get(userId);
      if (openAccount ? account !== undefined : account === undefined) return 'no-account';
      events.set(event.id, event.type);
      purchase.status = 'granted';
      if (openAccount) tables.accounts.set(userId, copy(openAccount));
      else account!.creditsRemaining += entry.credits;
      writeLedger(tables, userId, entry, key);
      return 'applied';
    },

    async failPurchase({ event, sessionId }) {
      const purchase = purchases.get(sessionId);
      if (events.has(event.id) || purchase?.status !== 'pending') return 'duplicate';
      events.set(event.id, event.type);
      purchase.status = 'failed';
      return 'applied';
    },
  });

  return Object.assign(repo, {
    credits,
    counters,
    /** Automation emails queued with the events (the trial-ending reminder). */
    outbox,
    /** Processed event ids and their types. */
    events,
    /** A stored subscription, as earlier events left it (the customer linked both ways). */
    seedSubscription(sub: StoredSubscription) {
      subscriptions.set(sub.userId, copy(sub));
      if (!customers.has(sub.userId)) {
        customers.set(sub.userId, sub.customerId);
        customerUsers.set(sub.customerId, sub.userId);
      }
    },
    /** The slot as another request left it. */
    seedCheckout(userId: string, slot: OpenCheckout) {
      checkouts.set(userId, copy(slot));
    },
    purchase: (sessionId: string) => {
      const purchase = purchases.get(sessionId);
      return purchase && copy(purchase);
    },
  });
};

export type MemoryBilling = ReturnType<typeof memoryBilling>;

/** A stored subscription (Starter, trialing, from an event at t=1000), overridable field by field. */
export const storedSubscription = (over: Partial<StoredSubscription> = {}): StoredSubscription => ({
  userId: 'u1',
  subscriptionId: 'sub_1',
  customerId: 'cus_1',
  status: 'trialing',
  tier: 'starter',
  trialEnd: '2026-12-05T12:00:00.000Z',
  currentPeriodEnd: '2026-12-05T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  lastEventAt: 1000,
  lastEventRank: 1,
  updatedAt: '2026-11-21T12:00:00.000Z',
  hasSubscribed: true,
  ...over,
});

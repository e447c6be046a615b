import { monthlyAllocation } from '../../contracts/credits.ts';
import type { BillingEvent, BillingRepository, Clock, CreditGrant, CreditRepository, StoredSubscription } from '../ports.ts';
import { planOfPrice, type PriceIds } from './prices.ts';
import { contractStatus, counterDeltas, isNewer, isSubscribed, statusRank } from './subscription-state.ts';
import { addMonths } from '../credits/periods.ts';

export interface StripeEventDeps {
  billing: BillingRepository;
  credits: Pick<CreditRepository, 'getAccount'>;
  prices: PriceIds;
  clock: Clock;
}

/** Events the product acts on or acknowledges; anything else gets a 200 and no effect. */
export const handledEventTypes = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.trial_will_end',
] as const;

export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored' | 'recorded' | 'unknown-customer' | 'unknown-purchase' | 'no-account';

const MAX_ATTEMPTS = 5;

/**
 * Applies one verified Stripe event exactly once, whatever the order and however often it is delivered: the event
 * id is recorded in the same transaction as its effect, and a subscription change applies only if it is newer than
 * the last one applied. Sends no email and calls nothing slow: the webhook answers fast.
 */
export const handleStripeEvent = async (deps: StripeEventDeps, event: BillingEvent): Promise<EventOutcome> => {
  if (!(handledEventTypes as readonly string[]).includes(event.type)) return 'ignored';
  if (await deps.billing.eventSeen(event.id)) return 'duplicate';
  if (event.kind === 'subscription') return applySubscription(deps, event);
  if (event.kind === 'checkout') return applyCheckout(deps, event);
  return record(deps, event);
};

const record = async (deps: StripeEventDeps, event: BillingEvent, outcome: EventOutcome = 'recorded'): Promise<EventOutcome> =>
  (await deps.billing.recordEvent({ id: event.id, type: event.type })) === 'duplicate' ? 'duplicate' : outcome;

const applySubscription = async (
  deps: StripeEventDeps,
  event: Extract<BillingEvent, { kind: 'subscription' }>,
): Promise<EventOutcome> => {
  const sub = event.subscription;
  const userId = await deps.billing.getUserIdByCustomer(sub.customerId);
  if (!userId) return record(deps, event, 'unknown-customer');
  const rank = statusRank(sub.status);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const before = await deps.billing.getSubscription(userId);
    if (!isNewer(before, event.created, rank)) return record(deps, event, 'stale');
    // An old subscription ending must not end the one that replaced it.
    if (before && before.subscriptionId !== sub.id && isSubscribed(contractStatus(before.status)) && !isSubscribed(contractStatus(sub.status))) {
      return record(deps, event, 'stale');
    }
    const now = deps.clock.now();
    const tier = planOfPrice(deps.prices, sub.priceId) ?? (before?.subscriptionId === sub.id ? before.tier : null);
    const after: StoredSubscription = {
      userId,
      subscriptionId: sub.id,
      customerId: sub.customerId,
      status: sub.status,
      tier,
      trialEnd: sub.trialEnd,
      currentPeriodEnd: sub.currentPeriodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      lastEventAt: event.created,
      lastEventRank: rank,
      updatedAt: now.toISOString(),
    };
    const account = await deps.credits.getAccount(userId);
    const subscribed = isSubscribed(contractStatus(sub.status));
    let creditGrant: CreditGrant | undefined;
    let creditPlan: { planType: 'starter' | 'pro'; monthlyAllocation: number } | undefined;
    if (subscribed && tier && !account) {
      const allocation = monthlyAllocation[tier];
      creditGrant = {
        account: {
          userId,
          creditsRemaining: allocation,
          creditsUsed: 0,
          monthlyAllocation: allocation,
          planType: tier,
          billingPeriodEnd: sub.currentPeriodEnd ?? addMonths(now.toISOString(), 1),
        },
        entry: { actionType: 'monthly_allocation', credits: allocation, createdAt: now.toISOString() },
        key: `grant:${sub.id}`,
      };
    } else if (account && tier) {
      const allocation = subscribed ? monthlyAllocation[tier] : 0;
      if (account.planType !== tier || account.monthlyAllocation !== allocation) creditPlan = { planType: tier, monthlyAllocation: allocation };
    }
    const result = await deps.billing.applySubscriptionEvent({
      event: { id: event.id, type: event.type },
      before,
      after,
      counters: counterDeltas(before, after),
      ...(creditGrant ? { creditGrant } : {}),
      ...(creditPlan ? { creditPlan } : {}),
    });
    if (result !== 'changed') return result;
  }
  throw new Error(`subscription ${sub.id} kept changing while event ${event.id} was applied`);
};

const applyCheckout = async (deps: StripeEventDeps, event: Extract<BillingEvent, { kind: 'checkout' }>): Promise<EventOutcome> => {
  const { checkout } = event;
  if (checkout.mode !== 'payment' || checkout.paymentStatus !== 'paid') return record(deps, event);
  // The amount comes from our own record of the purchase, never from the event's metadata.
  const purchase = await deps.billing.getPendingPurchase(checkout.sessionId);
  if (!purchase) return record(deps, event, 'unknown-purchase');
  const result = await deps.billing.grantPurchase({
    event: { id: event.id, type: event.type },
    sessionId: checkout.sessionId,
    userId: purchase.userId,
    entry: { actionType: 'credit_top_up', credits: purchase.credits, createdAt: deps.clock.now().toISOString() },
    key: `purchase:${checkout.sessionId}`,
  });
  return result === 'no-account' ? record(deps, event, 'no-account') : result;
};

import { monthlyAllocation } from '#contracts/credits.ts';
import type { PlanType } from '#contracts/plans.ts';
import type { BillingEvent, BillingSubscription, PaymentEvents } from '#core/billing/ports.ts';
import type { BillingRepository, Clock, CreditAccount, CreditGrant, CreditRepository, Metrics, OutboxEmail, StoredSubscription, UserRepository } from '#core/ports.ts';
import { planOfPrice, type PriceIds } from '#core/billing/prices.ts';
import { contractStatus, counterDeltas, isNewer, isSubscribed, reachedPlan, statusRank } from '#core/billing/subscription-state.ts';
import { addMonths } from '#core/credits/periods.ts';

export interface StripeEventDeps {
  billing: BillingRepository;
  /** The subscriber's address, for the trial-ending reminder queued with Stripe's trial_will_end. */
  users: Pick<UserRepository, 'getUser'>;
  credits: Pick<CreditRepository, 'getAccount'>;
  prices: PriceIds;
  clock: Clock;
  metrics: Metrics;
  /**
   * Whether the person asked for their account to be deleted (the deletion item exists from the request on, and
   * outlives the run): a plan event about them is recorded and writes none of their items back (issue 37).
   */
  accountDeletions: { requested(userId: string): Promise<boolean> };
}

/** Events the product acts on or acknowledges; anything else gets a 200 and no effect. */
export const handledEventTypes = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.trial_will_end',
] as const;

export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored' | 'recorded' | 'unknown-customer' | 'unknown-purchase' | 'account-deleted';

const MAX_ATTEMPTS = 5;

/**
 * Applies one verified Stripe event exactly once, whatever the order and however often it is delivered: the event
 * id is recorded in the same transaction as its effect, and a subscription change applies only if it is newer than
 * the last one applied. Sends no email (a reminder it owes is queued in the outbox) and calls nothing slow: the webhook
 * answers fast.
 */
export const handleStripeEvent = async (deps: StripeEventDeps, event: BillingEvent): Promise<EventOutcome> => {
  if (!(handledEventTypes as readonly string[]).includes(event.type)) return 'ignored';
  if (await deps.billing.eventSeen(event.id)) return 'duplicate';
  if (event.kind === 'subscription') return applySubscription(deps, event);
  if (event.kind === 'checkout') return applyCheckout(deps, event);
  return record(deps, event);
};

/**
 * POST /api/webhooks/stripe: the signature over the raw body first (BadSignatureError: nothing is read or written
 * before it holds), then the event applied once. Returns what happened, for the request's log line.
 */
export const applyStripeWebhook = async (
  deps: StripeEventDeps & { events: PaymentEvents },
  input: { rawBody: string; signature: string | undefined },
): Promise<{ eventId: string; eventType: string; outcome: EventOutcome }> => {
  const event = await deps.events.parseEvent(input.rawBody, input.signature);
  return { eventId: event.id, eventType: event.type, outcome: await handleStripeEvent(deps, event) };
};

const record = async (deps: StripeEventDeps, event: BillingEvent, outcome: EventOutcome = 'recorded'): Promise<EventOutcome> =>
  (await deps.billing.recordEvent({ id: event.id, type: event.type })) === 'duplicate' ? 'duplicate' : outcome;

/**
 * Whether an event of `sub` may replace what is stored. The same subscription: only a newer event (the lifecycle
 * rank breaks a tie within a second). Another subscription (the user subscribed again): never while the stored one
 * still gives access and the incoming one does not (an old subscription ending must not end the one that replaced
 * it); otherwise from the same second on, whatever the ranks (a new subscription created in the second the old one
 * was deleted is not "older" than the deletion).
 */
const supersedes = (before: StoredSubscription | undefined, sub: BillingSubscription, eventAt: number, rank: number): boolean => {
  if (!before || before.subscriptionId === sub.id) return isNewer(before, eventAt, rank);
  if (isSubscribed(contractStatus(before.status)) && !isSubscribed(contractStatus(sub.status))) return false;
  return eventAt >= before.lastEventAt;
};

/**
 * Stripe's trial_will_end (3 days before a trial ends) owes the creator the trial-ending reminder: queued in the
 * event's own transaction (so once, whatever the redeliveries) and sent by the campaign sender job, not here: the
 * webhook answers fast.
 */
const trialReminder = async (deps: StripeEventDeps, userId: string, now: Date): Promise<OutboxEmail | undefined> => {
  const user = await deps.users.getUser(userId);
  return user ? { automation: 'trial-ending', userId, email: user.email, at: now.toISOString() } : undefined;
};

const applySubscription = async (
  deps: StripeEventDeps,
  event: Extract<BillingEvent, { kind: 'subscription' }>,
): Promise<EventOutcome> => {
  const sub = event.subscription;
  const userId = await deps.billing.getUserIdByCustomer(sub.customerId);
  if (!userId) return record(deps, event, 'unknown-customer');
  // The deletion's own-items step erases the subscription and the credits; an event landing after it (Stripe's
  // answer to the deletion's own cancel, or a late retry) must not write them back. The stats counters the erased
  // subscription held are moved by that step, not here.
  if (await deps.accountDeletions.requested(userId)) return record(deps, event, 'account-deleted');
  const rank = statusRank(sub.status);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const before = await deps.billing.getSubscription(userId);
    if (!supersedes(before, sub, event.created, rank)) return record(deps, event, 'stale');
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
      hasSubscribed: (before?.hasSubscribed ?? false) || reachedPlan(sub.status),
    };
    const account = await deps.credits.getAccount(userId);
    const subscribed = isSubscribed(contractStatus(sub.status));
    let creditGrant: CreditGrant | undefined;
    let creditPlan: { planType: PlanType; monthlyAllocation: number } | undefined;
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
    const outbox = event.type === 'customer.subscription.trial_will_end' && sub.status === 'trialing' ? await trialReminder(deps, userId, now) : undefined;
    const result = await deps.billing.applySubscriptionEvent({
      event: { id: event.id, type: event.type },
      before,
      after,
      counters: counterDeltas(before, after),
      ...(creditGrant ? { creditGrant } : {}),
      ...(creditPlan ? { creditPlan } : {}),
      ...(outbox ? { outbox } : {}),
    });
    if (result === 'applied' && before?.status !== after.status) deps.metrics.record('SubscriptionStateChanged');
    if (result !== 'changed') return result;
  }
  throw new Error(`subscription ${sub.id} kept changing while event ${event.id} was applied`);
};

/**
 * A Checkout Session event. A subscription checkout that ends (paid or expired) frees the creator's checkout slot;
 * a top-up is granted when its payment is in (at once, or later for an asynchronous method), or marked failed.
 */
const applyCheckout = async (deps: StripeEventDeps, event: Extract<BillingEvent, { kind: 'checkout' }>): Promise<EventOutcome> => {
  const { checkout } = event;
  if (checkout.mode === 'subscription') {
    const ended = event.type === 'checkout.session.completed' || event.type === 'checkout.session.expired';
    const userId = ended && checkout.customerId ? await deps.billing.getUserIdByCustomer(checkout.customerId) : undefined;
    if (userId) await deps.billing.releaseCheckout({ userId, sessionId: checkout.sessionId });
    return record(deps, event);
  }
  if (checkout.mode !== 'payment') return record(deps, event);
  if (event.type === 'checkout.session.async_payment_failed') {
    return (await deps.billing.getPendingPurchase(checkout.sessionId))
      ? deps.billing.failPurchase({ event: { id: event.id, type: event.type }, sessionId: checkout.sessionId })
      : record(deps, event, 'unknown-purchase');
  }
  const paid = (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') && checkout.paymentStatus === 'paid';
  if (!paid) return record(deps, event);
  return grantPurchase(deps, event);
};

/**
 * Credits bought: the amount comes from our own record of the purchase, never from the event's metadata. A buyer who
 * has no credit account any more (it is gone by the time the payment lands) gets one holding the purchase: a paid
 * top-up is never lost.
 */
const grantPurchase = async (deps: StripeEventDeps, event: Extract<BillingEvent, { kind: 'checkout' }>): Promise<EventOutcome> => {
  const { sessionId } = event.checkout;
  const purchase = await deps.billing.getPendingPurchase(sessionId);
  if (!purchase) return record(deps, event, 'unknown-purchase');
  // A top-up paid while its buyer's account is being deleted (the deletion expires the customer's open sessions at
  // Stripe before it deletes the customer; this payment got in before): no credit account is opened again for them.
  // The purchase stays pending, the one record of a payment to give back (docs/privacy.md).
  if (await deps.accountDeletions.requested(purchase.userId)) return record(deps, event, 'account-deleted');
  const now = deps.clock.now().toISOString();
  const grant = {
    event: { id: event.id, type: event.type },
    sessionId,
    userId: purchase.userId,
    entry: { actionType: 'credit_top_up', credits: purchase.credits, createdAt: now },
    key: `purchase:${sessionId}`,
  };
  let openAccount: CreditAccount | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const result = await deps.billing.grantPurchase({ ...grant, ...(openAccount ? { openAccount } : {}) });
    if (result !== 'no-account') {
      if (result === 'applied') deps.metrics.record('CreditsPurchased', purchase.credits);
      return result;
    }
    // No account to top up, or (opening one) an account appeared meanwhile: try the other way.
    openAccount = openAccount ? undefined : await accountForPurchase(deps, purchase.userId, purchase.credits, now);
  }
  throw new Error(`purchase ${sessionId} found no stable credit account to grant into (${MAX_ATTEMPTS} attempts)`);
};

/** The account a purchase opens: the credits bought, and the plan's allocation if the buyer is subscribed. */
const accountForPurchase = async (deps: StripeEventDeps, userId: string, credits: number, now: string): Promise<CreditAccount> => {
  const sub = await deps.billing.getSubscription(userId);
  const subscribed = isSubscribed(contractStatus(sub?.status));
  const planType = sub?.tier ?? 'starter';
  return {
    userId,
    creditsRemaining: credits,
    creditsUsed: 0,
    monthlyAllocation: subscribed ? monthlyAllocation[planType] : 0,
    planType,
    billingPeriodEnd: (subscribed ? sub?.currentPeriodEnd : null) ?? addMonths(now, 1),
  };
};

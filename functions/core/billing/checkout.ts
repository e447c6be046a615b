import type { CheckoutBody } from '#contracts/billing.ts';
import { plans } from '#contracts/plans.ts';
import { ConflictError, ValidationError } from '#core/errors.ts';
import type { BillingRepository, Clock, Ids, Metrics, OpenCheckout, Payments, UserRepository } from '#core/ports.ts';
import { ensureCustomer } from '#core/billing/customer.ts';
import { type PriceIds, requireOwnOrigin } from '#core/billing/prices.ts';
import { contractStatus, isSubscribed } from '#core/billing/subscription-state.ts';

export interface CheckoutDeps {
  billing: BillingRepository;
  payments: Payments;
  users: UserRepository;
  ids: Ids;
  clock: Clock;
  metrics: Metrics;
  prices: PriceIds;
  appOrigin: string;
}

const MINUTE_MS = 60_000;
/**
 * A subscription checkout stays payable about as long as Stripe allows at the least (30 minutes from creation; one
 * more minute so the clock skew between us and Stripe never makes the request invalid), so an abandoned one frees
 * the creator's checkout slot soon.
 */
export const CHECKOUT_LIFETIME_MS = 31 * MINUTE_MS;
/** An open session closer than this to its end is replaced rather than handed out again. */
const REUSE_MARGIN_MS = 5 * MINUTE_MS;
/** A claim that never got its session (its request died) is taken over after this long. */
const STALE_CLAIM_MS = MINUTE_MS;

const taken = () => new ConflictError('A checkout is already being prepared for you. Try again in a moment.');

/**
 * A creator subscribes. Steps: 1. return addresses on our origin; 2. the price from the plan (a priceId that is not
 * that plan's is refused); 3. not already subscribed; 4. the creator's one checkout slot: the open session of the
 * same intent (or the same Idempotency-Key) is handed out again, anything else is claimed before Stripe is called,
 * so two checkouts at once make one session and a 409, never two subscriptions; 5. the customer; 6. a
 * subscription-mode Checkout Session, with Starter's 14-day trial only for a creator who never trialed or paid
 * (one trial per creator, ever). Nothing is granted here: only the paid session's webhook changes the account.
 */
export const startCheckout = async (
  deps: CheckoutDeps,
  input: { userId: string; body: CheckoutBody; idempotencyKey?: string | undefined },
): Promise<{ url: string }> => {
  const { planType, successUrl, cancelUrl, priceId } = input.body;
  requireOwnOrigin(deps.appOrigin, { successUrl, cancelUrl });
  const price = deps.prices[planType];
  if (priceId !== undefined && priceId !== price) {
    throw new ValidationError(`priceId is not the ${plans[planType].name} plan's price.`, [{ path: 'priceId', code: 'custom', message: 'Does not match planType' }]);
  }
  const current = await deps.billing.getSubscription(input.userId);
  if (isSubscribed(contractStatus(current?.status))) {
    throw new ConflictError('You already have a subscription. Manage or change it from your billing settings.');
  }

  const now = deps.clock.now().getTime();
  const intent = JSON.stringify([planType, successUrl, cancelUrl]);
  const slot = await deps.billing.getOpenCheckout(input.userId);
  if (slot?.status === 'open' && reusable(slot, { intent, idempotencyKey: input.idempotencyKey, now })) return { url: slot.url };
  const pending = slot?.status === 'creating' && now - Date.parse(slot.claimedAt) < STALE_CLAIM_MS ? slot : undefined;
  // A retry of the request that holds the fresh claim (same key, same intent: its answer was lost, or it failed and
  // could not free the slot) carries on with that claim, so Stripe sees the very same request and makes one session.
  const resumed = pending && input.idempotencyKey !== undefined && pending.idempotencyKey === input.idempotencyKey && pending.intent === intent ? pending : undefined;
  if (pending && !resumed) throw taken();

  const claim: Extract<OpenCheckout, { status: 'creating' }> = resumed ?? {
    status: 'creating',
    claimId: deps.ids.newId(),
    intent,
    ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
    claimedAt: new Date(now).toISOString(),
  };
  if (!resumed) {
    const claimed = await deps.billing.claimCheckout({ userId: input.userId, claim, ...(slot ? { replacing: slot.claimId } : {}) });
    if (claimed === 'taken') throw taken();
  }

  try {
    // The session it replaces (another plan, other return addresses, or about to end) can no longer be paid.
    if (slot?.status === 'open') await deps.payments.expireCheckoutSession(slot.sessionId);
    const customerId = await ensureCustomer(deps, input.userId);
    const trialDays = current?.hasSubscribed ? 0 : plans[planType].trialDays;
    // From the claim, not the clock: a resumed claim sends Stripe the same parameters under the same key (a changed
    // one is refused as a different request). A claim is resumed for a minute at most, within the lifetime's margin.
    const expiresAt = new Date(Date.parse(claim.claimedAt) + CHECKOUT_LIFETIME_MS);
    const session = await deps.payments.createCheckoutSession({
      mode: 'subscription',
      customerId,
      userId: input.userId,
      priceId: price,
      ...(trialDays > 0 ? { trialDays } : {}),
      successUrl,
      cancelUrl,
      expiresAt,
      metadata: { userId: input.userId, planType },
      idempotencyKey: `checkout:${input.userId}:${claim.claimId}`,
    });
    const opened = await deps.billing.openCheckout({
      userId: input.userId,
      checkout: { ...claim, status: 'open', sessionId: session.id, url: session.url, expiresAt: expiresAt.toISOString() },
    });
    if (opened === 'lost') {
      await deps.payments.expireCheckoutSession(session.id);
      throw taken();
    }
    deps.metrics.record('CheckoutStarted');
    return { url: session.url };
  } catch (error) {
    await deps.billing.releaseCheckout({ userId: input.userId, claimId: claim.claimId });
    throw error;
  }
};

/** The open session answers the same intent (or a retry with the same key) while it has a while left to run. */
const reusable = (
  slot: Extract<OpenCheckout, { status: 'open' }>,
  request: { intent: string; idempotencyKey: string | undefined; now: number },
): boolean =>
  Date.parse(slot.expiresAt) - request.now > REUSE_MARGIN_MS &&
  (slot.intent === request.intent || (request.idempotencyKey !== undefined && slot.idempotencyKey === request.idempotencyKey));

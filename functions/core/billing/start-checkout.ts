import type { CheckoutBody, PortalBody } from '../../contracts/billing.ts';
import { plans } from '../../contracts/plans.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import type { BillingRepository, Clock, Ids, Payments, UserRepository } from '../ports.ts';
import { type PriceIds, requireOwnOrigin } from './prices.ts';
import { contractStatus, isSubscribed } from './subscription-state.ts';

export interface CheckoutDeps {
  billing: BillingRepository;
  payments: Payments;
  users: UserRepository;
  ids: Ids;
  clock: Clock;
  prices: PriceIds;
  appOrigin: string;
}

/** One Stripe customer per user, created on first need and reused (Stripe's idempotency covers a race). */
export const ensureCustomer = async (deps: Pick<CheckoutDeps, 'billing' | 'payments' | 'users'>, userId: string): Promise<string> => {
  const existing = await deps.billing.getCustomerId(userId);
  if (existing) return existing;
  const user = await deps.users.getUser(userId);
  if (!user) throw new NotFoundError('Your profile was not found.');
  const customerId = await deps.payments.createCustomer({ userId, email: user.email });
  await deps.billing.saveCustomer(userId, customerId);
  return customerId;
};

/**
 * A creator subscribes: 1. return addresses on our origin; 2. the price from the plan (a priceId that is not that
 * plan's is refused); 3. not already subscribed; 4. the customer; 5. a subscription-mode Checkout Session, Starter
 * with its 14-day trial. Nothing is granted here: only the paid session's webhook changes the account.
 */
export const startCheckout = async (
  deps: CheckoutDeps,
  input: { userId: string; body: CheckoutBody; idempotencyKey?: string },
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
  const customerId = await ensureCustomer(deps, input.userId);
  const trialDays = plans[planType].trialDays;
  const session = await deps.payments.createCheckoutSession({
    mode: 'subscription',
    customerId,
    userId: input.userId,
    priceId: price,
    ...(trialDays > 0 ? { trialDays } : {}),
    successUrl,
    cancelUrl,
    metadata: { userId: input.userId, planType },
    idempotencyKey: `checkout:${input.userId}:${input.idempotencyKey ?? deps.ids.newId()}`,
  });
  return { url: session.url };
};

/** The provider's billing portal, where the subscription is managed or cancelled. */
export const openBillingPortal = async (
  deps: Pick<CheckoutDeps, 'billing' | 'payments' | 'appOrigin'>,
  input: { userId: string; body: PortalBody },
): Promise<{ url: string }> => {
  requireOwnOrigin(deps.appOrigin, { returnUrl: input.body.returnUrl });
  const customerId = await deps.billing.getCustomerId(input.userId);
  if (!customerId) throw new NotFoundError('You have no billing account yet: choose a plan first.');
  return deps.payments.createPortalSession({ customerId, returnUrl: input.body.returnUrl });
};

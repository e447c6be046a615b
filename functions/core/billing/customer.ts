import { NotFoundError } from '#core/errors.ts';
import type { BillingRepository, Payments, UserRepository } from '#core/ports.ts';

/**
 * One Stripe customer per user, created on first need and reused (Stripe's idempotency key `customer:<user>` covers
 * two first checkouts at once). A rule shared by the checkout and the credit top-up, not a use case of its own.
 */
export const ensureCustomer = async (
  deps: { billing: BillingRepository; payments: Payments; users: UserRepository },
  userId: string,
): Promise<string> => {
  const existing = await deps.billing.getCustomerId(userId);
  if (existing) return existing;
  const user = await deps.users.getUser(userId);
  if (!user) throw new NotFoundError('Your profile was not found.');
  const customerId = await deps.payments.createCustomer({ userId, email: user.email });
  await deps.billing.saveCustomer(userId, customerId);
  return customerId;
};

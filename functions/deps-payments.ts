import { stripePayments } from './adapters/stripe-payments.ts';
import { config } from './config.ts';
import type { CheckoutDeps } from './core/billing/start-checkout.ts';
import type { Payments } from './core/ports.ts';
import { billingRepository, clock, creditRepository, ids, priceIds, userRepository } from './deps.ts';

/** The composition of the handlers that talk to Stripe (its SDK stays out of every other bundle). */
let payments: Payments | undefined;

export const paymentsService = (): Payments => (payments ??= stripePayments());

export const checkoutDeps = (): CheckoutDeps & { credits: ReturnType<typeof creditRepository> } => ({
  billing: billingRepository(),
  payments: paymentsService(),
  users: userRepository(),
  credits: creditRepository(),
  ids,
  clock,
  prices: priceIds(),
  appOrigin: config().APP_ORIGIN,
});

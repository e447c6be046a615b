import { stripeConnect, stripeConnectEvents, stripeEvents, stripePayments } from '#adapters/stripe-payments.ts';
import { required } from '#functions/config.ts';
import type { CheckoutDeps } from '#core/billing/checkout.ts';
import type { StripeEventDeps } from '#core/billing/handle-stripe-event.ts';
import type { PurchaseCreditsDeps } from '#core/credits/credits.ts';
import type { ConnectEvents, ConnectPayments, PaymentEvents, Payments } from '#core/ports.ts';
import { billingRepository, clock, creditRepository, ids, metrics, payoutRepository, priceIds, userRepository } from '#functions/deps.ts';

/** The composition of the handlers that talk to Stripe (its SDK stays out of every other bundle). */
let payments: Payments | undefined;
let events: PaymentEvents | undefined;
let connect: ConnectPayments | undefined;
let connectEvents: ConnectEvents | undefined;

export const paymentsService = (): Payments => (payments ??= stripePayments());
export const paymentEvents = (): PaymentEvents => (events ??= stripeEvents());
export const connectPayments = (): ConnectPayments => (connect ??= stripeConnect());

/** Connecting a creator's payment account: Stripe Connect through the platform's key, the app's own origin. */
export const payoutsDeps = () => ({ payouts: payoutRepository(), connect: connectPayments(), users: userRepository(), clock, appOrigin: required('APP_ORIGIN') });

/** The Connect webhook: the payment accounts; its own signing secret, no API key. */
export const connectEventDeps = () => ({ payouts: payoutRepository(), events: (connectEvents ??= stripeConnectEvents()), clock });

/** Checkout, portal and top-up: Stripe's API, the billing records, the catalogue and the app's own origin. */
export const checkoutDeps = (): CheckoutDeps & PurchaseCreditsDeps => ({
  billing: billingRepository(),
  payments: paymentsService(),
  users: userRepository(),
  credits: creditRepository(),
  ids,
  clock,
  metrics,
  prices: priceIds(),
  appOrigin: required('APP_ORIGIN'),
});

/** The webhook: the billing and credit records and the catalogue; no Stripe API key. */
export const stripeEventDeps = (): StripeEventDeps => ({
  billing: billingRepository(),
  users: userRepository(),
  credits: creditRepository(),
  prices: priceIds(),
  clock,
  metrics,
});

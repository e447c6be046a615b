import { createHash } from 'node:crypto';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { firstSlice } from '#core/jobs/slices.ts';
import { stripeConnect, stripeConnectEvents, stripeEvents, stripePayments } from '#adapters/stripe-payments.ts';
import { required } from '#functions/config.ts';
import { accountDeletionRequested } from '#data/account-deletion.ts';
import { certificateRepository } from '#functions/composition/deps-certificates.ts';
import type { CheckoutDeps } from '#core/billing/checkout.ts';
import type { StripeEventDeps } from '#core/billing/handle-stripe-event.ts';
import type { PurchaseCreditsDeps } from '#core/credits/credits.ts';
import type { PaymentEvents } from '#core/billing/ports.ts';
import type { Payments } from '#core/ports.ts';
import type { ConnectEvents, ConnectPayments } from '#core/sales/ports.ts';
import type { ConnectWebhookDeps } from '#core/sales/connect-webhook.ts';
import type { BundleCheckoutDeps, CourseCheckoutDeps } from '#core/sales/checkout.ts';
import { bundleRepository } from '#functions/composition/deps-bundles.ts';
import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import type { CouponDeps } from '#core/sales/coupons.ts';
import type { MembershipCheckoutDeps } from '#core/memberships/memberships.ts';
import {
  affiliateRepository,
  billingRepository,
  clock,
  couponRepository,
  courseRepository,
  creditRepository,
  directoryService,
  enrollmentRepository,
  ids,
  licenseRepository,
  mailer,
  mailQueue,
  mailSchool,
  metrics,
  orderRepository,
  subscriptionReader,
  payoutRepository,
  priceIds,
  temporaryPassword,
  userRepository,
} from '#functions/composition/deps.ts';

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

/**
 * The Connect webhook: the payment accounts, the orders, and what a paid order needs (accounts, enrolments, email);
 * its own signing secret, and the platform's key for one thing: refunding a paid order it cannot fulfil. `note` puts
 * what went wrong after an order was paid on the request's log line; `alert` writes an error line of its own.
 */
export const connectEventDeps = (
  note: (message: string, fields: Record<string, unknown>) => void,
  alert: (message: string, fields: Record<string, unknown>) => void,
): ConnectWebhookDeps => ({
  payouts: payoutRepository(),
  events: (connectEvents ??= stripeConnectEvents()),
  memberships: membershipRepository(),
  courses: courseRepository(),
  orders: orderRepository(),
  users: userRepository(),
  directory: directoryService(),
  enrollments: enrollmentRepository(),
  affiliates: affiliateRepository(),
  licenses: licenseRepository(),
  certificates: certificateRepository(),
  coupons: couponRepository(),
  connect: connectPayments(),
  metrics,
  mailer: mailer(),
  mailQueue: mailQueue(),
  ids,
  clock,
  appOrigin: required('APP_ORIGIN'),
  mailSchool,
  temporaryPassword,
  // A run of the mail sender, started at once for the receipt or the new buyer's account the payment queued, named by
  // it (a redelivery's start is dropped by the queue's deduplication; the schedule's runs go on anyway).
  startSender: (key) => sqsSliceQueue().send([firstSlice('mail-sender', `mail-sender@${key}`)]),
  log: note,
  alert,
});

/** A creator's coupons, mirrored on their Stripe account through the platform's key. */
export const couponDeps = (): CouponDeps => ({ coupons: couponRepository(), payouts: payoutRepository(), connect: connectPayments(), affiliates: affiliateRepository(), clock });

/** A creator's refund: the order, Stripe Connect through the platform's key, the enrolment it revokes. */
export const refundDeps = () => ({ orders: orderRepository(), connect: connectPayments(), enrollments: enrollmentRepository(), licenses: licenseRepository(), certificates: certificateRepository(), clock });

/** A stable order id for a client's Idempotency-Key on a course: a retried checkout finds the order it made. */
const orderIdFor = (courseId: string, idempotencyKey: string): string =>
  `ord_${createHash('sha256').update(`${courseId}\n${idempotencyKey}`).digest('base64url').slice(0, 32)}`;

/** A visitor's course checkout: the course, the creator's payment account, the order, Stripe Connect. */
export const courseCheckoutDeps = (): CourseCheckoutDeps => ({
  courses: courseRepository(),
  payouts: payoutRepository(),
  orders: orderRepository(),
  coupons: couponRepository(),
  affiliates: affiliateRepository(),
  connect: connectPayments(),
  billing: subscriptionReader(),
  clock,
  ids,
  appOrigin: required('APP_ORIGIN'),
  orderIdFor,
});

/** A visitor's bundle checkout (issue 34): the course checkout's, with the bundle read by its id. */
/** A membership's checkout (subscription mode) and a member's billing portal, on the creator's account. */
export const membershipCheckoutDeps = (): MembershipCheckoutDeps => ({
  memberships: membershipRepository(),
  payouts: payoutRepository(),
  billing: billingRepository(),
  connect: connectPayments(),
  ids,
  appOrigin: required('APP_ORIGIN'),
});
export const membershipPortalDeps = () => ({ memberships: membershipRepository(), connect: connectPayments(), appOrigin: required('APP_ORIGIN') });

export const bundleCheckoutDeps = (): BundleCheckoutDeps => ({ ...courseCheckoutDeps(), courses: courseRepository(), bundles: bundleRepository() });

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
  accountDeletions: { requested: accountDeletionRequested },
});

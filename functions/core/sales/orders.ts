import { endLicense, licenseIdOf } from '#core/licenses/licenses.ts';
import { teamReceiptEmail } from '#core/enrollments/invitation-email.ts';
import { queuedBuyerAccount } from '#core/sales/buyer-account.ts';
import { enrollBundle, isBundleOrder, revokeBundle } from '#core/sales/bundle-enrollments.ts';
import { reverseOrder } from '#core/sales/sales.ts';
import { isPseudonym } from '#contracts/account-deletion.ts';
import { refundedOrderEmail, type UnfulfilledReason } from '#core/sales/refund-email.ts';
import { paidReferral } from '#core/affiliates/affiliates.ts';
import { type MailLaterDeps, dueMail } from '#core/mail/mail-queue.ts';
import type { AffiliateRepository, CertificateRepository, Directory, EnrollmentRepository, LicenseRepository, MailSchoolOf, Metrics, Order, OrderRepository, User, UserRepository } from '#core/ports.ts';
import type { ConnectCheckout, ConnectPayments, CouponRepository } from '#core/sales/ports.ts';

/**
 * A course order's life after the checkout, from the Connect webhook's `checkout.session.*` events: paid -> the buyer
 * is enrolled (a new email gets a learner account, invited with what they bought); expired -> the order is closed.
 * Whatever the number of deliveries and their order, one order pays once and enrols once. The webhook answers fast
 * (issue 28): it reads and writes the table only. The emails it owes (a team receipt, a refund notice) and a new buyer's
 * account (made, invited and enrolled by core/sales/buyer-account.ts) are queued in the mail queue in the order's own
 * transaction, and the sender job is started at once to do them (its schedule does them within the minute anyway); a
 * course receipt is sent from the order's paid record on the table's stream (core/sales/order-receipts.ts).
 * What fails after the order is paid never undoes it. A paid order that cannot be fulfilled
 * (no buyer email, an email of another role, a learner enrolled already, a coupon this buyer used already) is refunded
 * at once, the buyer told privately by email, and reported (an error log line and the `OrderUnfulfilled` metric the
 * alarms watch): never retried forever. A refund or dispute that arrived before its payment was parked, and is applied
 * as soon as the payment is.
 */
export interface OrderEventDeps extends MailLaterDeps {
  orders: OrderRepository;
  users: UserRepository;
  directory: Directory;
  enrollments: Pick<EnrollmentRepository, 'enroll' | 'remove' | 'get' | 'revokeSource'>;
  licenses: Pick<LicenseRepository, 'create' | 'get' | 'seats' | 'end'>;
  /** A reversal revokes the certificates the order gave. */
  certificates: Pick<CertificateRepository, 'heldFor' | 'revoke'>;
  affiliates: Pick<AffiliateRepository, 'get'>;
  coupons: Pick<CouponRepository, 'useOf'>;
  /** The refund of an order that cannot be fulfilled, on the creator's account. */
  connect: Pick<ConnectPayments, 'refundPayment'>;
  metrics: Metrics;
  /** An error-level log line (what an operator must look at). */
  alert: (message: string, fields: Record<string, unknown>) => void;
  appOrigin: string;
  /** The course's school (issue 32): a branded creator's team receipt and refund notice come from it. */
  mailSchool: MailSchoolOf;
  temporaryPassword: () => string;
  /**
   * Starts a run of the job that sends the mail queue at once, named by `key` (what was queued: a redelivery starts no
   * second run); a failure only delays what was queued until the schedule's next run.
   */
  startSender: (key: string) => Promise<void>;
}

export type OrderEventOutcome = 'paid' | 'expired' | 'refunded' | 'disputed' | 'duplicate' | 'not-pending' | 'unknown' | 'recorded' | 'unfulfillable' | 'parked';

type CheckoutEvent = { id: string; type: string; account: string; checkout: ConnectCheckout };

/** The account behind the buyer's email: theirs, 'new' when nobody has it (made after the payment, from the queue). */
const existingAccount = async (deps: OrderEventDeps, email: string): Promise<User | 'new' | undefined> => {
  const id = await deps.users.getUserIdByEmail(email);
  if (!id) return 'new';
  return deps.users.getUser(id);
};

/** The sender job started for what was just queued; a failure is noted, the schedule's run sends it all the same. */
const startSender = async (deps: OrderEventDeps, about: { orderId: string; email?: string; work?: string }): Promise<void> => {
  await deps.startSender(`${about.work ?? about.email ?? 'mail'}:${about.orderId}`.replaceAll(' ', '-')).catch((error: unknown) => deps.log('sender not started: the queue goes with its next scheduled run', { ...about, error: String(error) }));
};

/**
 * `charge.refunded` (a refund made on Stripe's dashboard, or ours arriving back) and `charge.dispute.created`: the
 * order is undone once (reverseOrder). A partial refund leaves the sale as it is. One whose payment is not known yet
 * (Stripe does not promise the order of its events) is parked and applied when the payment arrives.
 */
export const applyReversalEvent = async (
  deps: OrderEventDeps,
  event: { id: string; type: string; account: string; reversal: { paymentIntentId: string; to: 'refunded' | 'disputed'; complete: boolean } },
): Promise<OrderEventOutcome> => {
  const record = async (otherwise: OrderEventOutcome) => ((await deps.orders.recordEvent(event)) === 'duplicate' ? 'duplicate' : otherwise);
  let order = await deps.orders.getByPaymentIntent(event.reversal.paymentIntentId);
  // The payment's intent is written just before its order moves from pending (decision 0054): a reversal that comes
  // in between waits for it the same way, on the condition that the order is still pending.
  const pending = order?.status === 'pending' && order.accountId === event.account ? order.id : undefined;
  if ((!order || pending) && event.reversal.complete) {
    const parked = await deps.orders.parkReversal({
      event,
      paymentIntentId: event.reversal.paymentIntentId,
      accountId: event.account,
      to: event.reversal.to,
      ...(pending ? { pendingOrderId: pending } : {}),
    });
    if (parked !== 'known') return parked;
    // The payment arrived meanwhile: apply it now.
    order = await deps.orders.getByPaymentIntent(event.reversal.paymentIntentId);
  }
  if (!order || order.accountId !== event.account) return record('unknown');
  if (!event.reversal.complete || order.status !== 'paid') return record('not-pending');
  const outcome = await reverseOrder(deps, { order, to: event.reversal.to, event });
  return outcome === 'applied' ? event.reversal.to : outcome === 'not-paid' ? 'not-pending' : 'duplicate';
};

/** A reversal parked before its payment, applied to the order now paid (once: the order's move is conditional). */
const applyParked = async (deps: OrderEventDeps, orderId: string, paymentIntentId: string | null): Promise<'refunded' | 'disputed' | undefined> => {
  if (!paymentIntentId) return undefined;
  const reversals = await deps.orders.parkedReversals(paymentIntentId);
  if (reversals.length === 0) return undefined;
  const order = await deps.orders.get(orderId);
  const parked = reversals.find((p) => p.accountId === order?.accountId);
  if (!order || !parked || order.status !== 'paid') return undefined;
  await reverseOrder(deps, { order, to: parked.to });
  return parked.to;
};

/**
 * A paid order the platform cannot fulfil: the whole payment refunded on the creator's account (Stripe's idempotency
 * key `refund:<orderId>`, as a creator's own refund), then the order refunded with its reason and the buyer's notice
 * in one transaction, the notice sent, and the failure reported. A delivery that fails halfway is finished by the next.
 */
export const refundUnfulfilled = async (
  deps: OrderEventDeps,
  input: { order: Order; event: CheckoutEvent; email: string | null; reason: UnfulfilledReason },
): Promise<OrderEventOutcome> => {
  const { order, event, email, reason } = input;
  const paymentIntentId = event.checkout.paymentIntentId;
  // A refund or dispute parked for this payment is returning the money already (Stripe would refuse a second refund).
  const returning = paymentIntentId ? (await deps.orders.parkedReversals(paymentIntentId)).length > 0 : false;
  if (paymentIntentId && !returning) await deps.connect.refundPayment({ accountId: order.accountId, paymentIntentId, idempotencyKey: `refund:${order.id}` });
  const amount = event.checkout.amountTotal;
  const notice =
    email && reason !== 'no-email' && reason !== 'buyer-deleted'
      ? dueMail(deps, { to: email, ...refundedOrderEmail({ appOrigin: deps.appOrigin, courseTitle: order.courseTitle, amount, reason, school: await deps.mailSchool(order.creatorId) }) })
      : undefined;
  const outcome = await deps.orders.markUnfulfilled({
    event,
    orderId: order.id,
    refunded: { amount, discount: event.checkout.amountDiscount, buyerEmail: email, paymentIntentId, at: deps.clock.now().toISOString() },
    reason,
    notice,
  });
  if (outcome !== 'applied') return outcome;
  deps.alert('paid course order could not be fulfilled: refunded', { orderId: order.id, creatorId: order.creatorId, reason, amount });
  deps.metrics.record('OrderUnfulfilled');
  if (notice) await startSender(deps, { email: 'refund notice', orderId: order.id });
  return 'unfulfillable';
};

/** This buyer's use of the order's coupon by another order (one use per buyer), or undefined. */
const couponUsedElsewhere = async (deps: OrderEventDeps, order: Order, email: string) => {
  if (!order.couponCode) return undefined;
  const use = await deps.coupons.useOf(order.creatorId, order.couponCode, email);
  return use && use.orderId !== order.id ? use : undefined;
};

export const applyCheckoutEvent = async (deps: OrderEventDeps, event: CheckoutEvent): Promise<OrderEventOutcome> => {
  const record = async () => ((await deps.orders.recordEvent(event)) === 'duplicate' ? 'duplicate' : 'recorded');
  const order = event.checkout.orderId ? await deps.orders.get(event.checkout.orderId) : undefined;
  // Not ours, or not on the account the order was made on (a creator's own session carrying our metadata).
  if (!order || order.accountId !== event.account || (order.checkoutSessionId && order.checkoutSessionId !== event.checkout.sessionId)) {
    return (await record()) === 'duplicate' ? 'duplicate' : 'unknown';
  }
  // A coupon may take the whole price: nothing to pay is paid.
  const paid =
    (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') &&
    (event.checkout.paymentStatus === 'paid' || event.checkout.paymentStatus === 'no_payment_required');
  if (event.type === 'checkout.session.expired') return (await deps.orders.markExpired({ event, orderId: order.id })) === 'applied' ? 'expired' : 'not-pending';
  if (!paid) return record();
  // A redelivery of the event that paid it: known by the order (the payment's event is not recorded apart).
  if (order.status !== 'pending' && order.paidEventId === event.id) return 'duplicate';
  if (order.status !== 'pending') return (await record()) === 'duplicate' ? 'duplicate' : 'not-pending';

  // The buyer deleted their account while the checkout was open (the deletion expires it; this payment got in first):
  // the order keeps the pseudonym, and the address Stripe holds is not written back nor given an account or a receipt.
  // The payment is refunded at once (idempotent, as every refund here), and nobody is told: there is nobody to tell.
  if (order.buyerEmail !== null && isPseudonym(order.buyerEmail)) return refundUnfulfilled(deps, { order, event, email: order.buyerEmail, reason: 'buyer-deleted' });
  const email = (order.buyerEmail ?? event.checkout.email)?.toLowerCase() ?? null;
  // Stripe's page always asks for an email; a session that somehow has none cannot be fulfilled: refunded, reported.
  if (!email) return refundUnfulfilled(deps, { order, event, email: null, reason: 'no-email' });
  if (await couponUsedElsewhere(deps, order, email)) return refundUnfulfilled(deps, { order, event, email, reason: 'coupon-used' });
  const buyer = await existingAccount(deps, email);
  const outcome =
    buyer === 'new'
      ? await payForNewBuyer(deps, { order, event, email })
      : order.seats !== null
        ? await payTeamOrder(deps, { order, event, email, leader: buyer?.role === 'leader' ? buyer : undefined })
        : await payCourseOrder(deps, { order, event, email, learner: buyer?.role === 'learner' ? buyer : undefined });
  if (outcome !== 'paid') return outcome;
  // A refund or dispute that arrived first (parked, or parking while this payment was written) is applied now.
  return (await applyParked(deps, order.id, event.checkout.paymentIntentId)) ?? 'paid';
};

/**
 * A buyer whose email has no account yet: the order paid (with its affiliate's commission) and the work that makes,
 * invites and enrols (or gives the licence to) the buyer queued, in one transaction; the sender started at once. A
 * refund or dispute parked for this payment: paid and undone at once, no account made.
 */
const payForNewBuyer = async (deps: OrderEventDeps, input: { order: Order; event: CheckoutEvent; email: string }): Promise<OrderEventOutcome> => {
  const { order, event, email } = input;
  const reversed = event.checkout.paymentIntentId ? (await deps.orders.parkedReversals(event.checkout.paymentIntentId)).length > 0 : false;
  const paidAt = deps.clock.now().toISOString();
  const referral = await paidReferral(deps, { order, buyerEmail: email, amount: event.checkout.amountTotal, paidAt });
  const account = reversed ? undefined : queuedBuyerAccount(deps, order, email);
  const outcome = await deps.orders.markPaid({
    event,
    orderId: order.id,
    referral,
    account,
    paid: { amount: event.checkout.amountTotal, discount: event.checkout.amountDiscount, buyerEmail: email, learnerId: null, paymentIntentId: event.checkout.paymentIntentId, paidAt },
  });
  if (outcome === 'coupon-used') return refundUnfulfilled(deps, { order, event, email, reason: 'coupon-used' });
  if (outcome !== 'applied') return outcome;
  if (account) await startSender(deps, { work: 'buyer account', orderId: order.id });
  return 'paid';
};

const payCourseOrder = async (deps: OrderEventDeps, input: { order: Order; event: CheckoutEvent; email: string; learner: User | undefined }): Promise<OrderEventOutcome> => {
  const { order, event, email } = input;
  // The enrolment first (safe to repeat), the order's payment last: a delivery that fails halfway is finished by the
  // next one.
  // An email of another role (the checkout answers the same whoever the email is): refunded, the buyer told.
  if (!input.learner) return refundUnfulfilled(deps, { order, event, email, reason: 'cannot-take-courses' });
  const buyer = { learner: input.learner };
  // A bundle (issue 34) may hold courses the buyer has already: it covers them too (bundle-enrollments.ts).
  const bundle = isBundleOrder(order);
  const before = bundle ? undefined : await deps.enrollments.get(order.courseId, buyer.learner.id);
  // Enrolled before this purchase started (a later enrolment is this order's own, from a delivery that failed halfway).
  if (before?.status === 'active' && before.enrolledAt < order.createdAt) return refundUnfulfilled(deps, { order, event, email, reason: 'enrolled-already' });
  // A refund or dispute already parked for this payment: paid and undone at once, nobody enrolled, no receipt.
  const reversed = event.checkout.paymentIntentId ? (await deps.orders.parkedReversals(event.checkout.paymentIntentId)).length > 0 : false;
  if (!reversed && bundle) await enrollBundle(deps, order, buyer.learner);
  if (!reversed && !bundle) {
    await deps.enrollments.enroll({
      courseId: order.courseId,
      learnerId: buyer.learner.id,
      creatorId: order.creatorId,
      learnerEmail: buyer.learner.email,
      learnerJoinedAt: buyer.learner.createdAt,
      courseTitle: order.courseTitle,
      enrolledAt: deps.clock.now().toISOString(),
    });
  }
  const paidAt = deps.clock.now().toISOString();
  // The affiliate's sale and commission are written with the payment, in its transaction: once, whatever the deliveries.
  const referral = await paidReferral(deps, { order, buyerEmail: email, amount: event.checkout.amountTotal, paidAt });
  // The receipt is not written with the payment: the stream's reactions send it from the order's move to paid with
  // its learner (functions/streams/reactions/order-receipts.ts, decision 0054).
  const outcome = await deps.orders.markPaid({
    event,
    orderId: order.id,
    referral,
    paid: {
      amount: event.checkout.amountTotal,
      discount: event.checkout.amountDiscount,
      buyerEmail: email,
      learnerId: reversed ? null : buyer.learner.id,
      paymentIntentId: event.checkout.paymentIntentId,
      paidAt,
    },
  });
  if (outcome === 'coupon-used') {
    // Another order of this buyer redeemed the coupon first (concurrent checkouts): this one is refunded. Its enrolment
    // goes too, unless it is the other order's course (the same place, paid for there).
    const winner = await couponUsedElsewhere(deps, order, email);
    if (!reversed && bundle) await revokeBundle(deps, order, buyer.learner.id);
    if (!reversed && !bundle && winner?.courseId !== order.courseId) await deps.enrollments.remove(order.courseId, buyer.learner.id);
    return refundUnfulfilled(deps, { order, event, email, reason: 'coupon-used' });
  }
  if (outcome !== 'applied') return outcome;
  return 'paid';
};

/**
 * A paid team order of a leader who has an account: the licence of `seats` seats is made for them, then the order is
 * paid (with its affiliate's commission). Each step is safe to repeat: a delivery that fails halfway is finished by
 * the next one. (A new email's leader account, invitation and licence come from the queue: payForNewBuyer.)
 */
const payTeamOrder = async (deps: OrderEventDeps, input: { order: Order; event: CheckoutEvent; email: string; leader: User | undefined }): Promise<OrderEventOutcome> => {
  const { order, event, email } = input;
  const seats = order.seats ?? 0;
  // An email of another role: nobody to lead the team. Refunded, the buyer told.
  if (!input.leader) return refundUnfulfilled(deps, { order, event, email, reason: 'cannot-lead' });
  const leader = input.leader;
  const paidAt = deps.clock.now().toISOString();
  await deps.licenses.create({
    id: licenseIdOf(order.id),
    courseId: order.courseId,
    courseTitle: order.courseTitle,
    creatorId: order.creatorId,
    leaderId: leader.id,
    leaderEmail: leader.email,
    seatsTotal: seats,
    seatsUsed: 0,
    expiresAt: null,
    status: 'active',
    source: 'purchased',
    orderId: order.id,
    createdAt: paidAt,
  });
  const referral = await paidReferral(deps, { order, buyerEmail: email, amount: event.checkout.amountTotal, paidAt });
  const school = await deps.mailSchool(order.creatorId);
  const receipt = dueMail(deps, { to: email, ...teamReceiptEmail({ appOrigin: deps.appOrigin, courseTitle: order.courseTitle, seats, amount: event.checkout.amountTotal, school }) });
  const outcome = await deps.orders.markPaid({
    event,
    orderId: order.id,
    referral,
    receipt,
    paid: { amount: event.checkout.amountTotal, discount: event.checkout.amountDiscount, buyerEmail: email, learnerId: null, paymentIntentId: event.checkout.paymentIntentId, paidAt },
  });
  if (outcome === 'coupon-used') {
    await endLicense(deps, licenseIdOf(order.id));
    return refundUnfulfilled(deps, { order, event, email, reason: 'coupon-used' });
  }
  if (outcome !== 'applied') return outcome;
  await startSender(deps, { email: 'team receipt', orderId: order.id });
  return 'paid';
};

import { accountOrInvite } from '#core/accounts/create-account.ts';
import { licenseIdOf } from '#core/licenses/licenses.ts';
import { leaderInvitationEmail, purchaseInvitationEmail, purchaseReceiptEmail, teamReceiptEmail } from '#core/enrollments/invitation-email.ts';
import { reverseOrder } from '#core/sales/sales.ts';
import { paidReferral } from '#core/affiliates/affiliates.ts';
import { type MailLaterDeps, heldMail, sendHeld } from '#core/mail/mail-queue.ts';
import type { AffiliateRepository, CertificateRepository, LicenseRepository, ConnectCheckout, Directory, EnrollmentRepository, Order, OrderRepository, User, UserRepository } from '#core/ports.ts';

/**
 * A course order's life after the checkout, from the Connect webhook's `checkout.session.*` events: paid -> the buyer
 * is enrolled (a new email gets a learner account, invited with what they bought); expired -> the order is closed.
 * Whatever the number of deliveries and their order, one order pays once and enrols once. What fails after the order
 * is paid (its receipt: written with the payment, then sent) never undoes it.
 */
export interface OrderEventDeps extends MailLaterDeps {
  orders: OrderRepository;
  users: UserRepository;
  directory: Directory;
  enrollments: Pick<EnrollmentRepository, 'enroll' | 'remove'>;
  licenses: Pick<LicenseRepository, 'create' | 'get' | 'seats' | 'end'>;
  /** A reversal revokes the certificates the order gave. */
  certificates: Pick<CertificateRepository, 'heldFor' | 'revoke'>;
  affiliates: Pick<AffiliateRepository, 'get'>;
  appOrigin: string;
  temporaryPassword: () => string;
}

export type OrderEventOutcome = 'paid' | 'expired' | 'refunded' | 'disputed' | 'duplicate' | 'not-pending' | 'unknown' | 'recorded' | 'unfulfillable';

/** The buyer's account: theirs when it is a learner's, a new learner's (invited by email) when the email is new. */
const buyerAccount = async (deps: OrderEventDeps, order: Order, email: string, amount: number): Promise<{ learner: User; invited: boolean } | undefined> => {
  const account = await accountOrInvite(deps, {
    email,
    role: 'learner',
    invitation: (temporaryPassword, learner) => purchaseInvitationEmail({ appOrigin: deps.appOrigin, email: learner.email, courseTitle: order.courseTitle, temporaryPassword, amount }),
  });
  return account && { learner: account.user, invited: account.invited };
};

/**
 * `charge.refunded` (a refund made on Stripe's dashboard, or ours arriving back) and `charge.dispute.created`: the
 * order is undone once (reverseOrder). A partial refund leaves the sale as it is.
 */
export const applyReversalEvent = async (
  deps: OrderEventDeps,
  event: { id: string; type: string; account: string; reversal: { paymentIntentId: string; to: 'refunded' | 'disputed'; complete: boolean } },
): Promise<OrderEventOutcome> => {
  const order = await deps.orders.getByPaymentIntent(event.reversal.paymentIntentId);
  if (!order || order.accountId !== event.account) return (await deps.orders.recordEvent(event)) === 'duplicate' ? 'duplicate' : 'unknown';
  if (!event.reversal.complete || order.status !== 'paid') return (await deps.orders.recordEvent(event)) === 'duplicate' ? 'duplicate' : 'not-pending';
  const outcome = await reverseOrder(deps, { order, to: event.reversal.to, event });
  return outcome === 'applied' ? event.reversal.to : outcome === 'not-paid' ? 'not-pending' : 'duplicate';
};

export const applyCheckoutEvent = async (
  deps: OrderEventDeps,
  event: { id: string; type: string; account: string; checkout: ConnectCheckout },
): Promise<OrderEventOutcome> => {
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
  if (order.status !== 'pending') return (await record()) === 'duplicate' ? 'duplicate' : 'not-pending';

  const email = (order.buyerEmail ?? event.checkout.email)?.toLowerCase();
  if (!email) throw new Error(`paid order ${order.id} has no buyer email`);
  if (order.seats !== null) return payTeamOrder(deps, { order, event, email, record });
  // The account and the enrolment first (each safe to repeat), the order's payment last: a delivery that fails halfway
  // is finished by the next one.
  const buyer = await buyerAccount(deps, order, email, event.checkout.amountTotal);
  if (!buyer) {
    // An email of another role (checkout without `email`, typed on Stripe's page): paid, but nobody to enrol. The
    // creator sees the sale and refunds it (decision 0016).
    deps.log('paid course order has a buyer who cannot take courses', { orderId: order.id });
    return (await record()) === 'duplicate' ? 'duplicate' : 'unfulfillable';
  }
  await deps.enrollments.enroll({
    courseId: order.courseId,
    learnerId: buyer.learner.id,
    creatorId: order.creatorId,
    learnerEmail: buyer.learner.email,
    learnerJoinedAt: buyer.learner.createdAt,
    courseTitle: order.courseTitle,
    enrolledAt: deps.clock.now().toISOString(),
  });
  const paidAt = deps.clock.now().toISOString();
  // The affiliate's sale and commission are written with the payment, in its transaction: once, whatever the deliveries.
  const referral = await paidReferral(deps, { order, buyerEmail: email, amount: event.checkout.amountTotal, paidAt });
  // The receipt is written with the payment, held for this delivery to send: if it dies first, the sender job does.
  const receipt = buyer.invited ? undefined : heldMail(deps, { to: email, ...purchaseReceiptEmail({ appOrigin: deps.appOrigin, courseTitle: order.courseTitle, amount: event.checkout.amountTotal }) });
  const outcome = await deps.orders.markPaid({
    event,
    orderId: order.id,
    referral,
    receipt,
    paid: {
      amount: event.checkout.amountTotal,
      discount: event.checkout.amountDiscount,
      buyerEmail: email,
      learnerId: buyer.learner.id,
      paymentIntentId: event.checkout.paymentIntentId,
      paidAt,
    },
  });
  if (outcome !== 'applied') return outcome;
  if (receipt) await sendHeld(deps, receipt, { email: 'purchase receipt', orderId: order.id });
  return 'paid';
};


/**
 * A paid team order: its buyer becomes the group leader (a new email gets a leader account and an invitation that
 * says what they bought), the licence of `seats` seats is made for them, then the order is paid (with its affiliate's
 * commission). Each step is safe to repeat: a delivery that fails halfway is finished by the next one.
 */
const payTeamOrder = async (
  deps: OrderEventDeps,
  input: { order: Order; event: { id: string; type: string; account: string; checkout: ConnectCheckout }; email: string; record: () => Promise<'duplicate' | 'recorded'> },
): Promise<OrderEventOutcome> => {
  const { order, event, email } = input;
  const seats = order.seats ?? 0;
  const account = await accountOrInvite(deps, {
    email,
    role: 'leader',
    invitation: (temporaryPassword, user) => leaderInvitationEmail({ appOrigin: deps.appOrigin, email: user.email, courseTitle: order.courseTitle, seats, temporaryPassword }),
  });
  if (!account) {
    // An email of another role typed on Stripe's page: paid, but nobody to lead the team. The creator refunds it.
    deps.log('paid team order has a buyer who cannot lead a team', { orderId: order.id });
    return (await input.record()) === 'duplicate' ? 'duplicate' : 'unfulfillable';
  }
  const { user: leader, invited } = account;
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
  const receipt = invited ? undefined : heldMail(deps, { to: email, ...teamReceiptEmail({ appOrigin: deps.appOrigin, courseTitle: order.courseTitle, seats, amount: event.checkout.amountTotal }) });
  const outcome = await deps.orders.markPaid({
    event,
    orderId: order.id,
    referral,
    receipt,
    paid: { amount: event.checkout.amountTotal, discount: event.checkout.amountDiscount, buyerEmail: email, learnerId: null, paymentIntentId: event.checkout.paymentIntentId, paidAt },
  });
  if (outcome !== 'applied') return outcome;
  if (receipt) await sendHeld(deps, receipt, { email: 'team receipt', orderId: order.id });
  return 'paid';
};

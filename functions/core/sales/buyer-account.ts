import { accountOrInvite } from '#core/accounts/create-account.ts';
import { leaderInvitationEmail, purchaseInvitationEmail, purchaseReceiptEmail, teamReceiptEmail } from '#core/enrollments/invitation-email.ts';
import { endLicense, licenseIdOf } from '#core/licenses/licenses.ts';
import { enrollBundle, isBundleOrder, revokeBundle } from '#core/sales/bundle-enrollments.ts';
import type { Clock, Directory, EnrollmentRepository, LicenseRepository, Mailer, MailSchoolOf, Metrics, Order, OrderRepository, QueuedAccount, UserRepository } from '#core/ports.ts';

/**
 * A paid order's new buyer (issue 28 point 4): the Connect webhook pays the order and queues this work in the mail
 * queue in the payment's own transaction, then answers; the sender job (started at once by the webhook, and every
 * minute by its schedule) does it: the buyer's sign-in account made and invited with a temporary password made now
 * (never stored), then the course's enrolment (a learner) or the team licence (a leader), and the order's learner set.
 * Idempotent, so the queue's at-least-once is safe: an account that exists is reused (not invited again: the
 * invitation went with the try that made it; a retry that finds the sign-in account unfinished takes it over with a
 * new password and invites again, so the newest invitation works, decision 0026), the enrolment and the licence are
 * conditional writes. An order refunded or disputed meanwhile gives nothing (what was given is taken back).
 */
export interface BuyerAccountDeps {
  orders: Pick<OrderRepository, 'get' | 'setLearner'>;
  users: UserRepository;
  directory: Directory;
  enrollments: Pick<EnrollmentRepository, 'enroll' | 'remove' | 'get' | 'revokeSource'>;
  licenses: Pick<LicenseRepository, 'create' | 'get' | 'seats' | 'end'>;
  mailer: Mailer;
  clock: Clock;
  metrics: Metrics;
  appOrigin: string;
  /** The course's school (issue 32): a branded creator's buyer is invited, or sent the receipt, by it. */
  mailSchool: MailSchoolOf;
  temporaryPassword: () => string;
  /** An error-level log line (what an operator must look at). */
  alert: (message: string, fields: Record<string, unknown>) => void;
}

export type BuyerAccountOutcome = 'invited' | 'existing' | 'not-paid' | 'unfulfillable' | 'account-deleted';

/** The queued work for a paid order's new buyer, due at once (one per order: its id is the order's). */
export const queuedBuyerAccount = (deps: { clock: Clock }, order: Pick<Order, 'id'>, email: string): QueuedAccount => {
  const now = deps.clock.now().toISOString();
  return { kind: 'buyer-account', id: `account:${order.id}`, orderId: order.id, email, queuedAt: now, dueAt: now, tries: 0 };
};

export const createBuyerAccount = async (deps: BuyerAccountDeps, item: QueuedAccount): Promise<BuyerAccountOutcome> => {
  const order = await deps.orders.get(item.orderId);
  // Refunded or disputed before its account was made: nothing to give.
  if (order?.status !== 'paid') return 'not-paid';
  const team = order.seats !== null;
  const seats = order.seats ?? 0;
  const school = await deps.mailSchool(order.creatorId);
  const account = await accountOrInvite(deps, {
    email: item.email,
    role: team ? 'leader' : 'learner',
    invitation: (temporaryPassword, user) =>
      team
        ? leaderInvitationEmail({ appOrigin: deps.appOrigin, email: user.email, courseTitle: order.courseTitle, seats, temporaryPassword, school })
        : purchaseInvitationEmail({ appOrigin: deps.appOrigin, email: user.email, courseTitle: order.courseTitle, temporaryPassword, amount: order.amount, school }),
  });
  if (!account) return unfulfillable(deps, order, 'the email was taken by an account of another role after the payment');
  const { user } = account;
  // Being deleted (asked for, the run not yet at the email's release, after which the sender drops this work): nothing
  // is given to an account that is going, which its run would no longer find (its enrolments were walked already).
  if (user.deletingAt !== undefined) return 'account-deleted';
  // Made by this work (now, or by a try that died after making it): invited already. Older: a receipt instead.
  const ownAccount = account.invited || user.createdAt >= item.queuedAt;
  if (team) {
    await deps.licenses.create({
      id: licenseIdOf(order.id),
      courseId: order.courseId,
      courseTitle: order.courseTitle,
      creatorId: order.creatorId,
      leaderId: user.id,
      leaderEmail: user.email,
      seatsTotal: seats,
      seatsUsed: 0,
      expiresAt: null,
      status: 'active',
      source: 'purchased',
      orderId: order.id,
      createdAt: order.paidAt ?? deps.clock.now().toISOString(),
    });
    // Undone meanwhile (the reversal found no licence to end): ended here.
    if ((await deps.orders.get(order.id))?.status !== 'paid') {
      await endLicense(deps, licenseIdOf(order.id));
      return 'not-paid';
    }
  } else if (isBundleOrder(order)) {
    // A bundle (issue 34): every course of it, under the order's source; one invitation or receipt for them all.
    await enrollBundle(deps, order, user);
    if (!(await deps.orders.setLearner(order.id, user.id))) {
      await revokeBundle(deps, order, user.id);
      return 'not-paid';
    }
  } else {
    const before = await deps.enrollments.get(order.courseId, user.id);
    if (!ownAccount && before?.status === 'active' && before.enrolledAt < order.createdAt) {
      return unfulfillable(deps, order, 'the buyer was enrolled in the course before this purchase');
    }
    await deps.enrollments.enroll({
      courseId: order.courseId,
      learnerId: user.id,
      creatorId: order.creatorId,
      learnerEmail: user.email,
      learnerJoinedAt: user.createdAt,
      courseTitle: order.courseTitle,
      enrolledAt: deps.clock.now().toISOString(),
    });
    // The order names its learner only while paid: a reversal that came first (and found none to remove) is finished here.
    if (!(await deps.orders.setLearner(order.id, user.id))) {
      await deps.enrollments.remove(order.courseId, user.id);
      return 'not-paid';
    }
  }
  if (!ownAccount) {
    await deps.mailer.send({
      to: user.email,
      ...(team
        ? teamReceiptEmail({ appOrigin: deps.appOrigin, courseTitle: order.courseTitle, seats, amount: order.amount, school })
        : purchaseReceiptEmail({ appOrigin: deps.appOrigin, courseTitle: order.courseTitle, amount: order.amount, school })),
    });
  }
  return ownAccount ? 'invited' : 'existing';
};

/**
 * What the webhook checked could change before the account was made (someone took the email with another role in
 * between): the order stays paid and is reported for its creator to refund (POST /api/sales/{orderId}/refund), as
 * the alarms on `OrderUnfulfilled` say. Rare enough not to bring Stripe's SDK into the sender.
 */
const unfulfillable = (deps: BuyerAccountDeps, order: Order, why: string): BuyerAccountOutcome => {
  deps.alert('paid course order could not be fulfilled after payment: refund it', { orderId: order.id, creatorId: order.creatorId, why });
  deps.metrics.record('OrderUnfulfilled');
  return 'unfulfillable';
};

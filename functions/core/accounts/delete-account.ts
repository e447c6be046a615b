import type { AccountDeletionAccepted } from '#contracts/account-deletion.ts';
import type { AuditLine } from '#core/audit-line.ts';
import { auditLine } from '#core/admin/audit.ts';
import { submissionFileKey } from '#core/assignments/rules.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import type { BillingRepository, Clock, CourseRecord, Ids, User, UserRepository } from '#core/ports.ts';

/**
 * Deleting one's own account (issue 37 point 2; docs/privacy.md says what happens to each item). The request only
 * does what must hold at once: the sign-in account turned off and signed out everywhere (as an admin's disable), the
 * profile marked, and the 'account-deletion' run queued. The run erases the rest step by step
 * (ACCOUNT_DELETION_STEPS), each step idempotent and its progress kept on the deletion item, so a rerun or a kill at any
 * point loses nothing and does nothing twice.
 */

export const UNPUBLISH_FIRST_MESSAGE =
  'Your account cannot be deleted while learners are enrolled on a published course. Unpublish these courses first, then delete your account:';

/** Published courses asked about at once: a creator with hundreds asks a few at a time, not all together. */
const BLOCKING_CHECKS_AT_ONCE = 8;

/**
 * The published courses that hold learners: a creator with any is refused (409), their learners would lose access.
 * Each course's enrolments are asked (`hasActiveEnrolment`, a consistent read), not its `enrolledCount`: the stream
 * aggregator moves that figure a batch window after the enrolment, so a learner enrolled a moment ago would not count.
 */
export const coursesBlockingDeletion = async (
  courses: readonly Pick<CourseRecord, 'id' | 'title' | 'status'>[],
  hasActiveEnrolment: (courseId: string) => Promise<boolean>,
): Promise<string[]> => {
  const published = courses.filter((course) => course.status === 'published');
  const blocking: string[] = [];
  for (let i = 0; i < published.length; i += BLOCKING_CHECKS_AT_ONCE) {
    const batch = published.slice(i, i + BLOCKING_CHECKS_AT_ONCE);
    const held = await Promise.all(batch.map((course) => hasActiveEnrolment(course.id)));
    blocking.push(...batch.filter((_, j) => held[j]).map((course) => course.title));
  }
  return blocking;
};

export const LAST_ADMIN_MESSAGE = 'You are the only admin. Make another account an admin first, then delete your account.';

/** Admins read a page at a time while looking for another one who can still act. */
const ADMINS_PAGE = 50;

/**
 * Whether another admin than `userId` can still act (enabled, not being deleted): without one, nobody could manage
 * the platform's accounts or answer its support requests, and no admin could ever be made again from the app.
 */
export const anotherActiveAdmin = async (users: Pick<RequestAccountDeletionDeps['users'], 'listByRole'>, userId: string): Promise<boolean> => {
  let cursor: string | undefined;
  do {
    const page = await users.listByRole('admin', cursor, ADMINS_PAGE);
    if (page.items.some((admin) => admin.id !== userId && !admin.disabled && admin.deletingAt === undefined)) return true;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return false;
};

/** The deletion item's state the request reads back: whether a run was already queued for it. */
export interface DeletionMark {
  readonly requestedAt: string;
  readonly queued: boolean;
}

export interface AccountDeletionRequests {
  /** The profile marked `deletingAt` and the deletion item created (both kept as they are when already there). */
  mark(user: User, at: string): Promise<DeletionMark>;
  /** The deletion item notes that its run was queued: a repeated request queues nothing. */
  markQueued(userId: string): Promise<void>;
  /** When the deletion was asked for, if it was (the item outlives the profile). */
  requestedAt(userId: string): Promise<string | undefined>;
  /** Whether any learner is actively enrolled on the course now (a consistent read of its enrolments, no counter). */
  hasActiveEnrolment(courseId: string): Promise<boolean>;
}

export interface RequestAccountDeletionDeps {
  users: Pick<UserRepository, 'getUser' | 'listByRole'>;
  courses: { listByCreator(creatorId: string): Promise<CourseRecord[]> };
  /** Sign-in turned off and every session signed out (Cognito AdminDisableUser and AdminUserGlobalSignOut). */
  directory: { setSignInEnabled(userId: string, enabled: boolean): Promise<void> };
  deletions: AccountDeletionRequests;
  jobs: { start(userId: string): Promise<void> };
  clock: Clock;
}

/**
 * DELETE /api/me: the caller's account stops signing in at once and its deletion is queued. A creator with learners
 * on a published course is refused (409) before anything changes, and so is the platform's last active admin.
 * Repeating it answers the same and queues nothing more; a request that failed after the mark (the queue down) is
 * finished by the next one, which still finds the run not queued.
 */
export const requestAccountDeletion = async (deps: RequestAccountDeletionDeps, input: { userId: string }): Promise<AccountDeletionAccepted> => {
  const user = await deps.users.getUser(input.userId);
  if (!user) {
    // A request repeated after the run deleted the profile (its token not yet expired): the same answer.
    const requestedAt = await deps.deletions.requestedAt(input.userId);
    if (requestedAt === undefined) throw new NotFoundError('Your profile was not found.');
    return { status: 'deleting', requestedAt };
  }
  if (user.role === 'creator' && user.deletingAt === undefined) {
    const blocking = await coursesBlockingDeletion(await deps.courses.listByCreator(user.id), (courseId) => deps.deletions.hasActiveEnrolment(courseId));
    // The titles also as `details.courses`: the screen lists them one per line (a title may hold a comma).
    if (blocking.length > 0) throw new ConflictError(`${UNPUBLISH_FIRST_MESSAGE} ${blocking.join(', ')}.`, { courses: blocking });
  }
  if (user.role === 'admin' && user.deletingAt === undefined && !(await anotherActiveAdmin(deps.users, user.id))) throw new ConflictError(LAST_ADMIN_MESSAGE);
  // Marked already: sign-in was turned off before the mark, and the run may have deleted the sign-in account since.
  if (user.deletingAt === undefined) await deps.directory.setSignInEnabled(user.id, false);
  const mark = await deps.deletions.mark(user, deps.clock.now().toISOString());
  if (!mark.queued) {
    await deps.jobs.start(user.id);
    await deps.deletions.markQueued(user.id);
  }
  return { status: 'deleting', requestedAt: mark.requestedAt };
};

/* ---------- The 'account-deletion' job ---------- */

export const ACCOUNT_DELETION_JOB = 'account-deletion';

/**
 * The run's steps, in order. Billing stops first, right after sign-in: the plan's subscription is cancelled at once,
 * every checkout in progress closed and the Stripe customer deleted, while the person's own items still say which (a
 * kill before the step ends finds them again; the own items go later). The orders the person bought are found by the email (the buyer index), whatever
 * became of their enrolments (a refunded one is gone), while the deletion item still holds it. The enrolments go
 * before the person's own partition and the profile: each course's records about them are found from the enrolment,
 * active (the learner's courses index) or removed before (a refund, a revoked seat, a membership that ended, the
 * creator's removal: the courses they left, the same index), which is deleted last, so a kill in between finds the
 * course again. The records others keep about them by their id or email (a leader's
 * licences, affiliate records) go while the deletion item still holds the email, before the email's own keys. The
 * profile goes last but one, with the audit line in its transaction.
 */
export const ACCOUNT_DELETION_STEPS = ['sign-in', 'billing', 'enrolments', 'orders', 'records', 'own-items', 'email-keys', 'profile', 'done'] as const;
export type AccountDeletionStep = (typeof ACCOUNT_DELETION_STEPS)[number];

/** The deletion item as the job reads it. `email` is dropped when the run is done. */
export interface AccountDeletion {
  readonly userId: string;
  readonly email?: string;
  readonly role: User['role'];
  readonly requestedAt: string;
  readonly step: AccountDeletionStep;
}

/** One file a learner handed in with a submission: its object's key follows from these (submissionFileKey). */
export interface DeletedSubmissionUpload {
  readonly courseId: string;
  readonly lessonId: string;
  readonly learnerId: string;
  readonly id: string;
}

/** One enrolment of the person's, active or removed (a course they left), as the job walks them. */
export interface DeletedLearnerEnrolment {
  readonly courseId: string;
  readonly creatorId: string;
}

/** One order the person bought, as the deletion walks them (the buyer index): what its coupon use is keyed by. */
export interface DeletedBuyerOrder {
  readonly orderId: string;
  readonly creatorId: string;
  readonly couponCode: string | null;
  /** A pending order's Checkout Session, on the creator's connected account: still payable until it is expired. */
  readonly pendingCheckout: { readonly accountId: string; readonly sessionId: string } | null;
}

export interface AccountDeletionStore {
  get(userId: string): Promise<AccountDeletion | undefined>;
  /** Moves the item from `from` to the step after it (conditioned on `from`: two slices never both move it). */
  advance(userId: string, from: AccountDeletionStep, to: AccountDeletionStep): Promise<void>;
  /**
   * One page of the person's enrolments, at most `limit`: the active ones (the learner's courses index) first, then
   * the removed ones (the courses they left, the same index), whose courses still keep records about them. Each is
   * deleted by `eraseEnrolment`, so the next page is again the first.
   */
  enrolments(userId: string, limit: number): Promise<DeletedLearnerEnrolment[]>;
  /** The files the person handed in with their submissions in one course (their items, read by key). */
  submissionUploads(userId: string, courseId: string): Promise<DeletedSubmissionUpload[]>;
  /**
   * Everything one course and its creator hold about the person, then the enrolment (active or removed alike):
   * quiz attempts, drip plan, submissions (every one, superseded too) with their files' items and pending count,
   * live-session invitation claims, sequence entries, certificate's name, the licence seat the enrolment came through
   * (freed, as a revoke), the creator's membership rows bound to them (the email pseudonymised: a subscription is a
   * money record; found through the creator's memberships, as a removed enrolment names no source), CRM notes and
   * timeline, comments ("Deleted user"); the enrolment's email pseudonymised, removed through the removal path (the
   * counters) when still active, then deleted. (The orders are the 'orders' step's: found by the email.)
   */
  eraseEnrolment(deletion: Required<Pick<AccountDeletion, 'userId' | 'email'>>, enrolment: DeletedLearnerEnrolment, pseudonym: string): Promise<void>;
  /** One page of the orders that name `email` as their buyer (the buyer index), from `cursor`. */
  buyerOrders(email: string, cursor: string | undefined, limit: number): Promise<{ orders: DeletedBuyerOrder[]; nextCursor?: string }>;
  /**
   * One order kept (a money record, its amounts and status as they are) without the person: the coupon use keyed by
   * the email deleted, then the buyer the pseudonym and the order out of the buyer index, so a rerun no longer finds it.
   */
  eraseOrder(order: DeletedBuyerOrder, email: string, pseudonym: string): Promise<void>;
  /**
   * The records others keep about the person, found by their id or email through an index, never a scan: a leader's
   * licences keep their seats and money without the leader's email (the pseudonym); each creator's affiliate record
   * of that email keeps its commissions and payouts under the pseudonym and no name, its email claim deleted.
   */
  eraseRecords(deletion: Required<Pick<AccountDeletion, 'userId' | 'email'>>, pseudonym: string): Promise<void>;
  /**
   * The person's own partition (with the Stripe customer's mapping to it, `STRIPECUST#…`): every item but the credit
   * ledger's rows (money records), which keep no name or email; and their support requests (a creator's), deleted
   * whole.
   */
  eraseOwnItems(userId: string): Promise<void>;
  /** The email's reservation deleted; its suppression kept or put with reason 'deleted' (no marketing again). */
  releaseEmail(email: string, at: string): Promise<void>;
  /** The profile deleted (and the role counters moved) with the audit line, once; false when it was gone already. */
  deleteProfile(userId: string, role: User['role'], audit: AuditLine): Promise<boolean>;
  /** The run is done: the item keeps when and what, no longer the email. */
  finish(userId: string, at: string): Promise<void>;
}

/** Subscription statuses Stripe bills no more: nothing to cancel. */
const ENDED_SUBSCRIPTION = new Set(['canceled', 'incomplete_expired']);

export interface AccountDeletionJobDeps {
  deletions: AccountDeletionStore;
  /** The person's plan as the webhooks left it (their own items): the Stripe customer, the subscription and a checkout in progress. */
  billing: Pick<BillingRepository, 'getCustomerId' | 'getSubscription' | 'getOpenCheckout'>;
  /**
   * Stripe: the subscription cancelled now, not at the period's end (one Stripe has ended or no longer knows is fine:
   * a rerun, or the webhook's state behind Stripe's), an open Checkout Session expired so it cannot start a new one,
   * every open session of the customer expired (a credit top-up's too), and the customer deleted (one Stripe no longer
   * knows is fine). A course order's pending session is expired on the creator's connected account, where it was made
   * (one no longer open is fine).
   */
  payments: {
    cancelSubscriptionNow(subscriptionId: string): Promise<void>;
    expireCheckoutSession(sessionId: string): Promise<void>;
    expireCustomerCheckouts(customerId: string): Promise<void>;
    deleteCustomer(customerId: string): Promise<void>;
    expireCourseCheckout(checkout: { accountId: string; sessionId: string }): Promise<void>;
  };
  /** Cognito AdminDeleteUser; an account already gone is fine. */
  signIn: { deleteAccount(userId: string): Promise<void> };
  /** The files bucket: objects deleted by key (one already gone is fine). */
  uploads: { remove(keys: readonly string[]): Promise<void> };
  pseudonym: (email: string) => string;
  clock: Clock;
  ids: Ids;
}

/** Enrolments erased per page read (each is a few writes): a slice stops between them when its time is up. */
export const ENROLMENTS_PAGE = 25;
/** Orders erased per page read (each is two writes): a slice stops between pages when its time is up. */
export const ORDERS_PAGE = 50;

/**
 * One slice of a person's deletion: the steps from the item's own, each recorded when done, while time remains.
 * Returns whether the run is finished (false: the next slice goes on from the item's step).
 */
export const runAccountDeletion = async (deps: AccountDeletionJobDeps, userId: string, timeUp: () => boolean): Promise<{ finished: boolean; steps: number }> => {
  let steps = 0;
  for (;;) {
    const deletion = await deps.deletions.get(userId);
    if (!deletion || deletion.step === 'done') return { finished: true, steps };
    if (steps > 0 && timeUp()) return { finished: false, steps };
    const next = ACCOUNT_DELETION_STEPS[ACCOUNT_DELETION_STEPS.indexOf(deletion.step) + 1]!;
    const more = await runStep(deps, deletion, timeUp);
    if (more) return { finished: false, steps };
    await deps.deletions.advance(userId, deletion.step, next);
    steps++;
  }
};

/** One step; true when it stopped before its end (time up), to go on in the next slice. */
const runStep = async (deps: AccountDeletionJobDeps, deletion: AccountDeletion, timeUp: () => boolean): Promise<boolean> => {
  const { userId, email } = deletion;
  switch (deletion.step) {
    case 'sign-in':
      await deps.signIn.deleteAccount(userId);
      return false;
    case 'billing': {
      // The checkout first: paid after the cancel, it would start a subscription nobody could see or stop.
      const checkout = await deps.billing.getOpenCheckout(userId);
      if (checkout?.status === 'open') await deps.payments.expireCheckoutSession(checkout.sessionId);
      // Every other open session of theirs (a credit top-up keeps its session on no item of the person's).
      const customerId = await deps.billing.getCustomerId(userId);
      if (customerId !== undefined) await deps.payments.expireCustomerCheckouts(customerId);
      const subscription = await deps.billing.getSubscription(userId);
      if (subscription && !ENDED_SUBSCRIPTION.has(subscription.status)) await deps.payments.cancelSubscriptionNow(subscription.subscriptionId);
      // The customer itself last (Stripe keeps their email, name and cards on it): nothing of theirs is billed after.
      // Its mapping to them (`STRIPECUST#`) goes with their own items, so a webhook about it still finds whom it is about.
      if (customerId !== undefined) await deps.payments.deleteCustomer(customerId);
      return false;
    }
    case 'enrolments': {
      if (email === undefined) return false;
      for (;;) {
        const page = await deps.deletions.enrolments(userId, ENROLMENTS_PAGE);
        if (page.length === 0) return false;
        for (const enrolment of page) {
          // The handed-in files' bytes before their items: the items are how a rerun finds the bytes again.
          const uploads = await deps.deletions.submissionUploads(userId, enrolment.courseId);
          if (uploads.length > 0) await deps.uploads.remove(uploads.map(submissionFileKey));
          await deps.deletions.eraseEnrolment({ userId, email }, enrolment, deps.pseudonym(email));
          if (timeUp()) return true;
        }
      }
    }
    case 'orders': {
      if (email === undefined) return false;
      // A slice that stops starts again from the first page: the orders it erased have left the index.
      let cursor: string | undefined;
      do {
        const page = await deps.deletions.buyerOrders(email, cursor, ORDERS_PAGE);
        for (const order of page.orders) {
          // Expired before the order loses the email: a kill in between finds the order again, and expiring it again is
          // harmless. A payment that got in anyway finds the order pseudonymised and is refunded (core/sales/orders.ts).
          if (order.pendingCheckout) await deps.payments.expireCourseCheckout(order.pendingCheckout);
          await deps.deletions.eraseOrder(order, email, deps.pseudonym(email));
        }
        cursor = page.nextCursor;
        if (cursor !== undefined && timeUp()) return true;
      } while (cursor !== undefined);
      return false;
    }
    case 'records':
      if (email !== undefined) await deps.deletions.eraseRecords({ userId, email }, deps.pseudonym(email));
      return false;
    case 'own-items':
      await deps.deletions.eraseOwnItems(userId);
      return false;
    case 'email-keys':
      if (email !== undefined) await deps.deletions.releaseEmail(email, deps.clock.now().toISOString());
      return false;
    case 'profile': {
      const actor = { id: userId, email: email ?? '' };
      await deps.deletions.deleteProfile(userId, deletion.role, auditLine(deps, { actor, action: 'account-deleted', target: { kind: 'user', ...actor } }));
      await deps.deletions.finish(userId, deps.clock.now().toISOString());
      return false;
    }
    case 'done':
      return false;
  }
};

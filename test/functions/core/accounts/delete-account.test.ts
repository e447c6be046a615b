import { describe, expect, it } from 'vitest';
import { deleteAccountBody } from '#contracts/account-deletion.ts';
import {
  ACCOUNT_DELETION_STEPS,
  requestAccountDeletion,
  runAccountDeletion,
  type AccountDeletion,
  type AccountDeletionJobDeps,
  type AccountDeletionStep,
  type DeletedBuyerOrder,
  type RequestAccountDeletionDeps,
} from '#core/accounts/delete-account.ts';
import { ConflictError } from '#core/errors.ts';
import type { CourseRecord, OpenCheckout, StoredSubscription, User } from '#core/ports.ts';
import { emailPseudonym } from '#functions/composition/deps-account-deletion.ts';
import { testClock } from '#test/functions/fakes/clock.ts';

const learner: User = { id: 'u1', email: 'ann@example.com', role: 'learner', createdAt: '2026-01-01T00:00:00.000Z' };
const creator: User = { id: 'c1', email: 'cat@example.com', role: 'creator', createdAt: '2026-01-01T00:00:00.000Z' };
/**
 * A course with `learners` active enrolments. Its `enrolledCount` is the stream aggregator's late figure, left at 0
 * on purpose: the request must ask the enrolments, not the counter.
 */
const course = (status: 'draft' | 'published', learners: number, title = 'Knife skills') => ({ id: `k-${title}`, title, status, enrolledCount: 0, learners }) as CourseRecord & { learners: number };

const admin: User = { id: 'a1', email: 'ada@example.com', role: 'admin', createdAt: '2026-01-01T00:00:00.000Z' };

const requestDeps = (user: User, courses: (CourseRecord & { learners: number })[] = [], admins: User[] = []) => {
  const log: string[] = [];
  const asked: string[] = [];
  const marks = new Map<string, { requestedAt: string; queued: boolean }>();
  const deps: RequestAccountDeletionDeps = {
    users: {
      getUser: async (id) => (id === user.id ? { ...user, ...(marks.has(id) ? { deletingAt: marks.get(id)!.requestedAt } : {}) } : undefined),
      // Two admins a page: the search for another active admin must read past the first page.
      listByRole: async (role, cursor, _limit) => {
        const all = role === 'admin' ? [user, ...admins].filter((u) => u.role === 'admin') : [];
        const from = Number(cursor ?? 0);
        return { items: all.slice(from, from + 2), nextCursor: from + 2 < all.length ? String(from + 2) : null };
      },
    },
    courses: { listByCreator: async () => courses },
    directory: { setSignInEnabled: async (id, enabled) => void log.push(`sign-in ${id} ${enabled ? 'on' : 'off'}`) },
    deletions: {
      mark: async (u, at) => {
        const mark = marks.get(u.id) ?? { requestedAt: at, queued: false };
        marks.set(u.id, mark);
        return { ...mark };
      },
      markQueued: async (id) => void (marks.get(id)!.queued = true),
      requestedAt: async (id) => marks.get(id)?.requestedAt,
      hasActiveEnrolment: async (courseId) => {
        asked.push(courseId);
        return (courses.find((c) => c.id === courseId)?.learners ?? 0) > 0;
      },
    },
    jobs: { start: async (id) => void log.push(`queued ${id}`) },
    clock: testClock(),
  };
  return { deps, log, asked };
};

describe('asking for one’s account to be deleted', () => {
  it('takes only the typed word DELETE as confirmation', () => {
    expect(deleteAccountBody.safeParse({ confirm: 'DELETE' }).success).toBe(true);
    for (const body of [{}, { confirm: 'delete' }, { confirm: 'yes' }, { confirm: true }]) expect(deleteAccountBody.safeParse(body).success).toBe(false);
  });

  it('turns sign-in off and queues one deletion, however often it is asked', async () => {
    const { deps, log } = requestDeps(learner);
    expect(await requestAccountDeletion(deps, { userId: 'u1' })).toEqual({ status: 'deleting', requestedAt: '2026-11-21T12:00:00.000Z' });
    expect(await requestAccountDeletion(deps, { userId: 'u1' })).toEqual({ status: 'deleting', requestedAt: '2026-11-21T12:00:00.000Z' });
    expect(log).toEqual(['sign-in u1 off', 'queued u1']);
  });

  it('answers the same once the run has deleted the profile, and 404 for an account never asked to be deleted', async () => {
    const { deps, log } = requestDeps(learner);
    await requestAccountDeletion(deps, { userId: 'u1' });
    deps.users.getUser = async () => undefined;
    expect(await requestAccountDeletion(deps, { userId: 'u1' })).toEqual({ status: 'deleting', requestedAt: '2026-11-21T12:00:00.000Z' });
    await expect(requestAccountDeletion(deps, { userId: 'u2' })).rejects.toThrow('Your profile was not found.');
    expect(log).toEqual(['sign-in u1 off', 'queued u1']);
  });

  it('queues the run on the next request when the queue failed the first time', async () => {
    const { deps, log } = requestDeps(learner);
    const start = deps.jobs.start;
    deps.jobs.start = async () => Promise.reject(new Error('queue down'));
    await expect(requestAccountDeletion(deps, { userId: 'u1' })).rejects.toThrow('queue down');
    deps.jobs.start = start;
    await requestAccountDeletion(deps, { userId: 'u1' });
    expect(log.filter((line) => line.startsWith('queued'))).toEqual(['queued u1']);
  });

  it('refuses a creator with learners on a published course, naming it, and changes nothing', async () => {
    const { deps, log } = requestDeps(creator, [course('published', 3, 'Knife skills'), course('published', 0, 'Empty'), course('draft', 2, 'Draft')]);
    const refused = requestAccountDeletion(deps, { userId: 'c1' });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toThrow(/Unpublish these courses first.*Knife skills\.$/);
    await expect(refused).rejects.toMatchObject({ details: { courses: ['Knife skills'] } });
    expect(log).toEqual([]);
  });

  it('asks the enrolments of published courses only, and names every course that holds learners', async () => {
    const courses = Array.from({ length: 20 }, (_, i) => course(i % 2 === 0 ? 'published' : 'draft', i % 4 === 0 ? 1 : 0, `Course ${i}`));
    const { deps, asked } = requestDeps(creator, courses);
    await expect(requestAccountDeletion(deps, { userId: 'c1' })).rejects.toMatchObject({
      details: { courses: ['Course 0', 'Course 4', 'Course 8', 'Course 12', 'Course 16'] },
    });
    expect(asked.sort()).toEqual(courses.filter((c) => c.status === 'published').map((c) => c.id).sort());
  });

  it('refuses the last active admin, and lets an admin go when another one can still act', async () => {
    const others = [
      { ...admin, id: 'a2', disabled: true },
      { ...admin, id: 'a3', deletingAt: '2026-11-20T00:00:00.000Z' },
    ];
    const alone = requestDeps(admin, [], others);
    const refused = requestAccountDeletion(alone.deps, { userId: 'a1' });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toThrow('You are the only admin. Make another account an admin first, then delete your account.');
    expect(alone.log).toEqual([]);

    const { deps, log } = requestDeps(admin, [], [...others, { ...admin, id: 'a4' }]);
    expect(await requestAccountDeletion(deps, { userId: 'a1' })).toEqual({ status: 'deleting', requestedAt: '2026-11-21T12:00:00.000Z' });
    expect(log).toEqual(['sign-in a1 off', 'queued a1']);
  });

  it('lets a creator whose published courses have no learners delete their account', async () => {
    const { deps, log } = requestDeps(creator, [course('published', 0), course('draft', 5)]);
    await requestAccountDeletion(deps, { userId: 'c1' });
    expect(log).toEqual(['sign-in c1 off', 'queued c1']);
  });
});

/** The job against an in-memory store that records each write, to prove a rerun or a kill doubles nothing. */
/** The person's plan as the fakes hold it: Stripe's subscription (with the webhook's copy of its status) and a checkout. */
interface FakePlan {
  customerId?: string;
  subscription?: { id: string; status: string };
  checkout?: OpenCheckout;
}

/** Orders in the buyer index of ann@example.com: o1 (a refunded course, no enrolment left) and o2 with a coupon. */
const buyerOrders = (): DeletedBuyerOrder[] => [
  { orderId: 'o1', creatorId: 'c1', couponCode: null, pendingCheckout: null },
  { orderId: 'o2', creatorId: 'c2', couponCode: 'BREAD10', pendingCheckout: null },
];

const jobDeps = (plan: FakePlan = {}, orders: DeletedBuyerOrder[] = buyerOrders(), ordersPage = 50) => {
  const writes: string[] = [];
  let item: AccountDeletion | undefined = { userId: 'u1', email: 'ann@example.com', role: 'learner', requestedAt: '2026-11-21T12:00:00.000Z', step: 'sign-in' };
  const enrolments = [
    { courseId: 'k1', creatorId: 'c1' },
    { courseId: 'k2', creatorId: 'c2' },
  ];
  let profile = true;
  const deps: AccountDeletionJobDeps = {
    deletions: {
      get: async () => (item ? { ...item } : undefined),
      advance: async (_id, from, to) => {
        if (item?.step === from) item = { ...item, step: to };
      },
      enrolments: async (_id, limit) => enrolments.slice(0, limit),
      // A file handed in on k1 only: its item goes with the enrolment's erasure.
      submissionUploads: async (id, courseId) => (courseId === 'k1' && enrolments.some((e) => e.courseId === 'k1') ? [{ courseId, lessonId: 'l1', learnerId: id, id: 'f1' }] : []),
      eraseEnrolment: async (_d, enrolment, pseudonym) => {
        writes.push(`erase ${enrolment.courseId} as ${pseudonym}`);
        enrolments.splice(enrolments.indexOf(enrolment), 1);
      },
      // The index read from the cursor (an offset here); an erased order leaves it.
      buyerOrders: async (email, cursor, limit) => {
        const from = Number(cursor ?? 0);
        const page = email === 'ann@example.com' ? orders.slice(from, from + Math.min(limit, ordersPage)) : [];
        return { orders: page, ...(from + page.length < orders.length ? { nextCursor: String(from + page.length) } : {}) };
      },
      eraseOrder: async (order, email, pseudonym) => {
        writes.push(`order ${order.orderId} of ${email} as ${pseudonym}${order.couponCode ? `, coupon use ${order.couponCode} deleted` : ''}`);
      },
      eraseRecords: async (d, pseudonym) => void writes.push(`records of ${d.email} as ${pseudonym}`),
      eraseOwnItems: async () => {
        writes.push('own items');
        delete plan.customerId;
        delete plan.subscription;
        delete plan.checkout;
      },
      releaseEmail: async (email) => void writes.push(`release ${email}`),
      deleteProfile: async (_id, _role, audit) => {
        if (!profile) return false;
        profile = false;
        writes.push(`profile deleted, audit ${audit.action} by ${audit.actor.email}`);
        return true;
      },
      finish: async () => {
        const { email: _email, ...rest } = item!;
        item = { ...rest, step: 'done' };
      },
    },
    billing: {
      getSubscription: async (userId) => (plan.subscription ? ({ userId, subscriptionId: plan.subscription.id, status: plan.subscription.status } as StoredSubscription) : undefined),
      getOpenCheckout: async () => plan.checkout,
      getCustomerId: async () => plan.customerId,
    },
    payments: {
      cancelSubscriptionNow: async (id) => void writes.push(`subscription ${id} cancelled now`),
      expireCheckoutSession: async (id) => void writes.push(`checkout ${id} expired`),
      expireCustomerCheckouts: async (id) => void writes.push(`customer ${id}'s open checkouts expired`),
      deleteCustomer: async (id) => void writes.push(`customer ${id} deleted`),
      expireCourseCheckout: async ({ accountId, sessionId }) => void writes.push(`course checkout ${sessionId} on ${accountId} expired`),
    },
    signIn: { deleteAccount: async (id) => void writes.push(`sign-in account ${id} deleted`) },
    uploads: { remove: async (keys) => void writes.push(`files removed ${keys.join(' ')}`) },
    pseudonym: emailPseudonym,
    clock: testClock(),
    ids: { newId: () => 'line1' },
  };
  return { deps, writes, item: () => item, stepTo: (step: AccountDeletionStep) => (item = { ...item!, step }) };
};

describe('the account deletion job', () => {
  it('runs every step once, the audit line with the profile, and ends without the email', async () => {
    const { deps, writes, item } = jobDeps();
    expect(await runAccountDeletion(deps, 'u1', () => false)).toEqual({ finished: true, steps: ACCOUNT_DELETION_STEPS.length - 1 });
    const pseudonym = emailPseudonym('ann@example.com');
    expect(pseudonym).toMatch(/^deleted-[0-9a-f]{16}@deleted\.invalid$/);
    expect(writes).toEqual([
      'sign-in account u1 deleted',
      'files removed courses/k1/l1/submissions/u1/f1',
      `erase k1 as ${pseudonym}`,
      `erase k2 as ${pseudonym}`,
      `order o1 of ann@example.com as ${pseudonym}`,
      `order o2 of ann@example.com as ${pseudonym}, coupon use BREAD10 deleted`,
      `records of ann@example.com as ${pseudonym}`,
      'own items',
      'release ann@example.com',
      'profile deleted, audit account-deleted by ann@example.com',
    ]);
    expect(item()).toEqual({ userId: 'u1', role: 'learner', requestedAt: '2026-11-21T12:00:00.000Z', step: 'done' });
  });

  it('changes nothing when run again after it finished', async () => {
    const { deps, writes } = jobDeps();
    await runAccountDeletion(deps, 'u1', () => false);
    const before = [...writes];
    expect(await runAccountDeletion(deps, 'u1', () => false)).toEqual({ finished: true, steps: 0 });
    expect(writes).toEqual(before);
  });

  it('stops between enrolments when time is up and goes on from there in the next slice', async () => {
    const { deps, writes, item } = jobDeps();
    let calls = 0;
    // Asked after sign-in, after billing, then after the first enrolment: time is up there.
    expect(await runAccountDeletion(deps, 'u1', () => ++calls > 2)).toEqual({ finished: false, steps: 2 });
    expect(item()?.step).toBe('enrolments');
    expect(writes).toEqual(['sign-in account u1 deleted', 'files removed courses/k1/l1/submissions/u1/f1', `erase k1 as ${emailPseudonym('ann@example.com')}`]);
    expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
    expect(writes.filter((w) => w.startsWith('erase'))).toHaveLength(2);
  });

  it('removes a handed-in file again, harmlessly, when a kill came between its bytes and its items', async () => {
    const { deps, writes } = jobDeps();
    const erase = deps.deletions.eraseEnrolment;
    deps.deletions.eraseEnrolment = async () => Promise.reject(new Error('killed'));
    await expect(runAccountDeletion(deps, 'u1', () => false)).rejects.toThrow('killed');
    deps.deletions.eraseEnrolment = erase;
    expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
    expect(writes.filter((w) => w.startsWith('files removed'))).toEqual(['files removed courses/k1/l1/submissions/u1/f1', 'files removed courses/k1/l1/submissions/u1/f1']);
    expect(writes.filter((w) => w.startsWith('erase'))).toHaveLength(2);
  });

  it("cancels a creator's subscription at once, and closes their open checkout, before any of their own items go", async () => {
    const checkout: OpenCheckout = { status: 'open', claimId: 'cl1', intent: 'starter', claimedAt: '2026-11-21T11:59:00.000Z', sessionId: 'cs_1', url: 'https://pay', expiresAt: '2026-11-21T12:30:00.000Z' };
    const { deps, writes } = jobDeps({ subscription: { id: 'sub_1', status: 'active' }, checkout });
    expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
    expect(writes.slice(0, 4)).toEqual(['sign-in account u1 deleted', 'checkout cs_1 expired', 'subscription sub_1 cancelled now', 'files removed courses/k1/l1/submissions/u1/f1']);
    expect(writes.indexOf('subscription sub_1 cancelled now')).toBeLessThan(writes.indexOf('own items'));
    expect(writes.filter((w) => w.startsWith('subscription') || w.startsWith('checkout'))).toHaveLength(2);
  });

  it("deletes a creator's Stripe customer after closing every open session of theirs and cancelling the plan, before their own items go (which hold the customer's id)", async () => {
    const { deps, writes } = jobDeps({ customerId: 'cus_1', subscription: { id: 'sub_1', status: 'trialing' } });
    expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
    expect(writes.slice(0, 4)).toEqual(['sign-in account u1 deleted', "customer cus_1's open checkouts expired", 'subscription sub_1 cancelled now', 'customer cus_1 deleted']);
    expect(writes.filter((w) => w.startsWith('customer'))).toHaveLength(2);
  });

  it('deletes the customer again after a kill before the billing step was recorded (the adapter takes one Stripe no longer knows as done)', async () => {
    const { deps, writes, item } = jobDeps({ customerId: 'cus_2' });
    const advance = deps.deletions.advance;
    deps.deletions.advance = async (id, from, to) => (from === 'billing' ? Promise.reject(new Error('killed')) : advance(id, from, to));
    await expect(runAccountDeletion(deps, 'u1', () => false)).rejects.toThrow('killed');
    expect(item()?.step).toBe('billing');
    deps.deletions.advance = advance;
    expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
    expect(writes.filter((w) => w === 'customer cus_2 deleted')).toHaveLength(2);
  });

  it("expires a pending order's checkout on the creator's connected account before the order loses the email, and no other order's", async () => {
    const orders: DeletedBuyerOrder[] = [
      { orderId: 'o1', creatorId: 'c1', couponCode: null, pendingCheckout: null },
      { orderId: 'o2', creatorId: 'c2', couponCode: null, pendingCheckout: { accountId: 'acct_c2', sessionId: 'cs_o2' } },
    ];
    const { deps, writes } = jobDeps({}, orders);
    expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
    const pseudonym = emailPseudonym('ann@example.com');
    expect(writes.filter((w) => w.startsWith('order') || w.startsWith('course checkout'))).toEqual([
      `order o1 of ann@example.com as ${pseudonym}`,
      'course checkout cs_o2 on acct_c2 expired',
      `order o2 of ann@example.com as ${pseudonym}`,
    ]);
  });

  it('asks Stripe nothing for a person with no subscription, one already ended, or a checkout only being created', async () => {
    for (const plan of [{}, { subscription: { id: 'sub_2', status: 'canceled' } }, { subscription: { id: 'sub_3', status: 'incomplete_expired' } }, { checkout: { status: 'creating', claimId: 'cl', intent: 'pro', claimedAt: 'x' } as OpenCheckout }]) {
      const { deps, writes } = jobDeps(plan);
      expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
      expect(writes.filter((w) => w.startsWith('subscription') || w.startsWith('checkout'))).toEqual([]);
    }
  });

  it('asks for the cancel again after a kill before the step was recorded (Stripe answers a cancelled one as done), and never after', async () => {
    const { deps, writes, item } = jobDeps({ subscription: { id: 'sub_4', status: 'past_due' } });
    const advance = deps.deletions.advance;
    deps.deletions.advance = async (id, from, to) => (from === 'billing' ? Promise.reject(new Error('killed')) : advance(id, from, to));
    await expect(runAccountDeletion(deps, 'u1', () => false)).rejects.toThrow('killed');
    expect(item()?.step).toBe('billing');
    deps.deletions.advance = advance;
    expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
    expect(writes.filter((w) => w.startsWith('subscription'))).toEqual(['subscription sub_4 cancelled now', 'subscription sub_4 cancelled now']);
    await runAccountDeletion(deps, 'u1', () => false);
    expect(writes.filter((w) => w.startsWith('subscription'))).toHaveLength(2);
  });

  it("pseudonymises every order the person bought, found by their email (not their enrolments), a page at a time, stopping between pages when time is up", async () => {
    const orders = Array.from({ length: 5 }, (_, i): DeletedBuyerOrder => ({ orderId: `o${i}`, creatorId: 'c9', couponCode: null, pendingCheckout: null }));
    const { deps, writes, item, stepTo } = jobDeps({}, orders, 2);
    stepTo('orders');
    let calls = 0;
    expect(await runAccountDeletion(deps, 'u1', () => ++calls > 1)).toEqual({ finished: false, steps: 0 });
    expect(item()?.step).toBe('orders');
    expect(writes).toEqual([`order o0 of ann@example.com as ${emailPseudonym('ann@example.com')}`, `order o1 of ann@example.com as ${emailPseudonym('ann@example.com')}`, `order o2 of ann@example.com as ${emailPseudonym('ann@example.com')}`, `order o3 of ann@example.com as ${emailPseudonym('ann@example.com')}`]);
    expect((await runAccountDeletion(deps, 'u1', () => false)).finished).toBe(true);
    // The next slice starts from the first page again: erasing an order twice is harmless (the store's rerun test), and
    // every order was erased.
    expect(new Set(writes.filter((w) => w.startsWith('order')))).toEqual(new Set(orders.map((o) => `order ${o.orderId} of ann@example.com as ${emailPseudonym('ann@example.com')}`)));
  });

  it('after a kill during the profile step, the rerun writes no second audit line', async () => {
    const { deps, writes, stepTo } = jobDeps();
    await runAccountDeletion(deps, 'u1', () => false);
    stepTo('profile'); // as if the slice died after the profile's transaction, before the item moved on
    await runAccountDeletion(deps, 'u1', () => false);
    expect(writes.filter((w) => w.startsWith('profile deleted'))).toHaveLength(1);
  });
});

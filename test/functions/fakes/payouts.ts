import { pageOf } from './paging.ts';
import { memoryMemberships } from './memberships.ts';
import { BadSignatureError } from '#core/errors.ts';
import type { PlanLevel } from '#contracts/entitlements.ts';
import type { Order, OrderRepository, QueuedAccount, SalesDay, SalesWindow, StoredCourse } from '#core/ports.ts';
import { createBuyerAccount } from '#core/sales/buyer-account.ts';
import type { ConnectedAccountState, ConnectEvent, ConnectEvents, ConnectPayments, CouponRepository, OrderReceiptMarks, PayoutAccount, PayoutRepository, StoredCoupon } from '#core/sales/ports.ts';
import { memoryAffiliates } from './affiliates.ts';
import { memoryBundles } from './bundles.ts';
import { memoryHeldCertificates } from './certificates.ts';
import { memoryLicenses } from './licenses.ts';
import { NOW, sequentialIds, testClock } from './clock.ts';
import { courseRecord } from './courses.ts';
import { APP_ORIGIN, creator } from './deps.ts';
import { memoryCourseReader, memoryEnrollments, memoryMailer, memoryMailQueue } from './enrollments.ts';
import { withHooks } from './hooks.ts';
import { memoryMetrics } from './metrics.ts';
import { memoryDirectory, memoryUsers } from './users.ts';
import { memorySendQuota, onBehalfFakes, planSubscriptions } from '#test/functions/fakes/on-behalf.ts';
import { memoryMailSchools } from '#test/functions/fakes/mail-schools.ts';

/** Payment accounts in memory, as functions/data/payouts.ts keeps them: one per creator, each event applied once, newer only. */
export const memoryPayouts = () => {
  const accounts = new Map<string, PayoutAccount>();
  const events = new Set<string>();
  const repo = withHooks<PayoutRepository>({
    async get(userId) {
      const found = accounts.get(userId);
      return found && structuredClone(found);
    },
    async create(account) {
      const stored = accounts.get(account.userId);
      if (stored) return structuredClone(stored);
      if ([...accounts.values()].some((a) => a.accountId === account.accountId)) throw new Error(`payment account ${account.accountId} is already held`);
      accounts.set(account.userId, structuredClone(account));
      return structuredClone(account);
    },
    async ownerOf(accountId) {
      return [...accounts.values()].find((a) => a.accountId === accountId)?.userId;
    },
    async applyAccountEvent({ event, accountId, eventAt, state, updatedAt }) {
      const owner = [...accounts.values()].find((a) => a.accountId === accountId);
      if (!owner) return 'unknown';
      if (events.has(event.id)) return 'duplicate';
      events.add(event.id);
      if (owner.lastEventAt > eventAt) return 'stale';
      accounts.set(owner.userId, { ...owner, ...state, lastEventAt: eventAt, updatedAt });
      return 'applied';
    },
  });
  return Object.assign(repo, { accounts });
};

export const notReady: ConnectedAccountState = { chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false, requirements: ['external_account', 'tos_acceptance.date'] };

/** Stripe Connect as it behaves where it matters: one account per creator whatever the retries, a fresh link each time. */
export const memoryConnect = () => {
  const made: { accountId: string; userId: string; email: string }[] = [];
  const links: { accountId: string; returnUrl: string; refreshUrl: string; url: string }[] = [];
  const checkouts = new Map<string, Parameters<ConnectPayments['createCourseCheckout']>[0] & { id: string; url: string }>();
  const refunds: Parameters<ConnectPayments['refundPayment']>[0][] = [];
  const promotions = new Map<string, Parameters<ConnectPayments['createPromotion']>[0] & { couponId: string; promotionCodeId: string; active: boolean; deleted: boolean }>();
  const connect = withHooks<ConnectPayments>({
    async createConnectedAccount({ userId, email }) {
      let account = made.find((a) => a.userId === userId);
      if (!account) {
        account = { accountId: `acct_${made.length + 1}`, userId, email };
        made.push(account);
      }
      return { accountId: account.accountId, state: notReady, eventAt: 1_000 };
    },
    async createAccountLink(input) {
      const url = `https://connect.stripe.test/setup/${input.accountId}/${links.length + 1}`;
      links.push({ ...input, url });
      return { url };
    },
    // Stripe's idempotency: the same key answers the same session.
    async createCourseCheckout(input) {
      const earlier = checkouts.get(input.idempotencyKey);
      if (earlier) return { id: earlier.id, url: earlier.url };
      const id = `cs_test_${checkouts.size + 1}`;
      const session = { ...input, id, url: `https://checkout.stripe.test/${input.accountId}/${id}` };
      checkouts.set(input.idempotencyKey, session);
      return { id, url: session.url };
    },
    async createMembershipCheckout(input) {
      const earlier = checkouts.get(input.idempotencyKey);
      if (earlier) return { id: earlier.id, url: earlier.url };
      const id = `cs_test_${checkouts.size + 1}`;
      const url = `https://checkout.stripe.test/${input.accountId}/${id}`;
      checkouts.set(input.idempotencyKey, { ...input, orderId: '', courseId: input.membershipId, courseTitle: input.title, expiresAt: new Date(0), id, url });
      return { id, url };
    },
    async createPortalSession(input) {
      return { url: `https://billing.stripe.test/${input.accountId}/${input.customerId}` };
    },
    async refundPayment(input) {
      if (!refunds.some((r) => r.idempotencyKey === input.idempotencyKey)) refunds.push(input);
    },
    async createPromotion(input) {
      const n = promotions.size + 1;
      const made = { ...input, couponId: `coupon_${n}`, promotionCodeId: `promo_${n}`, active: true, deleted: false };
      promotions.set(made.promotionCodeId, made);
      return { couponId: made.couponId, promotionCodeId: made.promotionCodeId };
    },
    async setPromotionActive({ promotionCodeId, active }) {
      const found = promotions.get(promotionCodeId);
      if (!found) throw new Error(`no promotion code ${promotionCodeId}`);
      found.active = active;
    },
    async deletePromotion({ couponId }) {
      for (const promotion of promotions.values()) if (promotion.couponId === couponId) promotion.deleted = true;
    },
  });
  return Object.assign(connect, { made, links, checkouts, refunds, promotions });
};

/** Connect webhooks: a body is "signed" when the signature is `good`; it is the event itself as JSON. */
export const memoryConnectEvents = (): ConnectEvents => ({
  async parseEvent(rawBody, signature) {
    if (signature !== 'good') throw new BadSignatureError();
    return JSON.parse(rawBody) as ConnectEvent;
  },
});

/** Coupons in memory, as functions/data/coupons.ts keeps them (redeemed and uses move with paid orders: `redeem`). */
export const memoryCoupons = () => {
  const coupons = new Map<string, StoredCoupon>();
  const uses = new Map<string, { orderId: string | null; courseId: string | null }>();
  const key = (creatorId: string, code: string) => `${creatorId}/${code}`;
  const useKey = (creatorId: string, code: string, email: string) => `${key(creatorId, code)}/${email.toLowerCase()}`;
  const repo = withHooks<CouponRepository>({
    async list(creatorId) {
      return [...coupons.values()].filter((c) => c.creatorId === creatorId).map((c) => structuredClone(c));
    },
    async page(creatorId, request) {
      const mine = [...coupons.values()].filter((c) => c.creatorId === creatorId).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.code.localeCompare(a.code));
      return structuredClone(pageOf(mine, request));
    },
    async get(creatorId, code) {
      const found = coupons.get(key(creatorId, code));
      return found && structuredClone(found);
    },
    async create(coupon) {
      if (coupons.has(key(coupon.creatorId, coupon.code))) return false;
      coupons.set(key(coupon.creatorId, coupon.code), structuredClone(coupon));
      return true;
    },
    async update(creatorId, code, changes) {
      const found = coupons.get(key(creatorId, code));
      if (!found) return undefined;
      const saved = { ...found, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
      coupons.set(key(creatorId, code), saved);
      return structuredClone(saved);
    },
    async delete(creatorId, code) {
      return coupons.delete(key(creatorId, code));
    },
    async usedBy(creatorId, code, email) {
      return uses.has(useKey(creatorId, code, email));
    },
    async useOf(creatorId, code, email) {
      const found = uses.get(useKey(creatorId, code, email));
      return found && { ...found };
    },
  });
  /** Whether a paid order's transaction may count its coupon: the buyer has no use of it, or this order's. */
  const canRedeem = (creatorId: string, code: string, use: { email: string; orderId: string }) => {
    if (!coupons.has(key(creatorId, code))) return true;
    const found = uses.get(useKey(creatorId, code, use.email));
    return !found || found.orderId === use.orderId;
  };
  /** What a paid order's transaction does to its coupon. */
  const redeem = (creatorId: string, code: string, use: { email: string; orderId: string; courseId: string }) => {
    const found = coupons.get(key(creatorId, code));
    if (!found) return;
    found.redeemed += 1;
    uses.set(useKey(creatorId, code, use.email), { orderId: use.orderId, courseId: use.courseId });
  };
  return Object.assign(repo, { coupons, uses, redeem, canRedeem });
};

/** Orders in memory, as functions/data/orders.ts keeps them: each event once; pending -> paid or expired, once. */
export const memoryOrders = (coupons?: ReturnType<typeof memoryCoupons>, affiliates?: ReturnType<typeof memoryAffiliates>, mailQueue?: ReturnType<typeof memoryMailQueue>) => {
  const orders = new Map<string, Order>();
  const events = new Set<string>();
  const parked = new Map<string, { eventId: string; accountId: string; to: 'refunded' | 'disputed' }[]>();
  const intentKnown = (paymentIntentId: string) => [...orders.values()].some((o) => o.status !== 'pending' && o.paymentIntentId === paymentIntentId);
  type Day = SalesDay & Pick<SalesWindow, 'refunds' | 'views' | 'checkouts' | 'byCourse' | 'byCoupon'>;
  const days = new Map<string, Day>();
  const months = new Map<string, number>();
  const dayAt = (creatorId: string, at: string): Day =>
    days.get(`${creatorId}/${at.slice(0, 10)}`) ?? { date: at.slice(0, 10), revenue: 0, sales: 0, refunds: 0, views: 0, checkouts: 0, byCourse: {}, byCoupon: {} };
  /** What functions/data/orders.ts ADDs to the day's and month's counters. */
  const count = (order: Order, at: string, move: { revenue: number; sales: number; refunds: number; discount: number }) => {
    const key = `${order.creatorId}/${at.slice(0, 10)}`;
    const day = dayAt(order.creatorId, at);
    const course = day.byCourse[order.courseId] ?? { revenue: 0, sales: 0 };
    const coupon = order.couponCode && move.sales > 0 ? order.couponCode : undefined;
    const used = (coupon && day.byCoupon[coupon]) || { redemptions: 0, discount: 0 };
    days.set(key, {
      ...day,
      revenue: day.revenue + move.revenue,
      sales: day.sales + move.sales,
      refunds: day.refunds + move.refunds,
      byCourse: { ...day.byCourse, [order.courseId]: { revenue: course.revenue + move.revenue, sales: course.sales + move.sales } },
      byCoupon: coupon ? { ...day.byCoupon, [coupon]: { redemptions: used.redemptions + 1, discount: used.discount + move.discount } } : day.byCoupon,
    });
    const month = `${order.creatorId}/${at.slice(0, 7)}`;
    months.set(month, (months.get(month) ?? 0) + move.revenue);
  };
  const record = (event: { id: string }) => {
    if (events.has(event.id)) return false;
    events.add(event.id);
    return true;
  };
  const repo = withHooks<OrderRepository>({
    async get(orderId) {
      const found = orders.get(orderId);
      return found && structuredClone(found);
    },
    async create(order) {
      if (orders.has(order.id)) return false;
      orders.set(order.id, structuredClone(order));
      return true;
    },
    async setCheckout(orderId, session) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      orders.set(orderId, { ...order, checkoutSessionId: session.id, checkoutUrl: session.url });
    },
    async setLearner(orderId, learnerId) {
      const order = orders.get(orderId);
      if (order?.status !== 'paid') return false;
      orders.set(orderId, { ...order, learnerId });
      return true;
    },
    async markPaid({ event, orderId, paid, referral, receipt, account }) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      // As data/orders.ts: the paying event is kept on the order, not recorded apart.
      if (order.paidEventId === event.id || events.has(event.id)) return 'duplicate';
      if (order.status !== 'pending') return record(event) ? 'not-pending' : 'duplicate';
      // The buyer's use of the coupon is a condition of the transaction: another order's use cancels it all.
      if (order.couponCode && coupons && !coupons.canRedeem(order.creatorId, order.couponCode, { email: paid.buyerEmail, orderId })) return 'coupon-used';
      orders.set(orderId, { ...order, ...paid, affiliateId: referral?.affiliateId ?? null, status: 'paid', paidEventId: event.id });
      if (referral) affiliates?.onPaid({ creatorId: order.creatorId, orderId, courseTitle: order.courseTitle, orderAmount: paid.amount, at: paid.paidAt, ...referral });
      count(order, paid.paidAt, { revenue: paid.amount, sales: 1, refunds: 0, discount: paid.discount });
      if (order.couponCode) coupons?.redeem(order.creatorId, order.couponCode, { email: paid.buyerEmail, orderId, courseId: order.courseId });
      if (receipt) await mailQueue?.write(receipt);
      if (account) await mailQueue?.write(account);
      return 'applied';
    },
    async markUnfulfilled({ event, orderId, refunded, reason, notice }) {
      if (events.has(event.id)) return 'duplicate';
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      record(event);
      if (order.status !== 'pending') return 'not-pending';
      orders.set(orderId, { ...order, amount: refunded.amount, discount: refunded.discount, buyerEmail: refunded.buyerEmail, paymentIntentId: refunded.paymentIntentId, paidAt: refunded.at, affiliateId: null, status: 'refunded', unfulfilled: reason } as Order);
      count(order, refunded.at, { revenue: 0, sales: 0, refunds: 1, discount: 0 });
      if (notice) await mailQueue?.write(notice);
      return 'applied';
    },
    async parkReversal({ event, paymentIntentId, accountId, to, pendingOrderId }) {
      if (events.has(event.id)) return 'duplicate';
      if (pendingOrderId ? orders.get(pendingOrderId)?.status !== 'pending' : intentKnown(paymentIntentId)) return 'known';
      record(event);
      parked.set(paymentIntentId, [...(parked.get(paymentIntentId) ?? []), { eventId: event.id, accountId, to }]);
      return 'parked';
    },
    async parkedReversals(paymentIntentId) {
      return structuredClone(parked.get(paymentIntentId) ?? []);
    },
    async markExpired({ event, orderId }) {
      if (!record(event)) return 'duplicate';
      const order = orders.get(orderId);
      if (!order || order.status !== 'pending') return 'not-pending';
      orders.set(orderId, { ...order, status: 'expired' });
      return 'applied';
    },
    async recordEvent(event) {
      return record(event) ? 'applied' : 'duplicate';
    },
    async getByPaymentIntent(paymentIntentId) {
      const found = [...orders.values()].find((o) => o.status !== 'pending' && o.paymentIntentId === paymentIntentId);
      return found && structuredClone(found);
    },
    async listSales(creatorId, cursor, limit) {
      const sold = [...orders.values()]
        .filter((o) => o.creatorId === creatorId && o.paidAt)
        .sort((a, b) => b.paidAt!.localeCompare(a.paidAt!) || b.id.localeCompare(a.id));
      const start = cursor ? Number(cursor) : 0;
      const next = start + limit < sold.length ? String(start + limit) : null;
      return { items: structuredClone(sold.slice(start, start + limit)), nextCursor: next };
    },
    async markReversed({ event, orderId, to, at }) {
      if (event && !record(event)) return 'duplicate';
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      if (order.status !== 'paid') return 'not-paid';
      orders.set(orderId, { ...order, status: to });
      count(order, at, { revenue: -order.amount, sales: 0, refunds: 1, discount: 0 });
      if (order.affiliateId) affiliates?.onReversed(order.affiliateId, orderId);
      return 'applied';
    },
    async salesWindow(creatorId, from, to) {
      const inWindow = [...days.entries()].filter(([key, day]) => key.startsWith(`${creatorId}/`) && day.date >= from && day.date <= to).map(([, day]) => day);
      const window: SalesWindow = { days: [], refunds: 0, views: 0, checkouts: 0, byCourse: {}, byCoupon: {} };
      for (const { byCourse, byCoupon, refunds, views, checkouts, ...day } of inWindow.sort((a, b) => a.date.localeCompare(b.date))) {
        if (day.revenue !== 0 || day.sales !== 0 || refunds !== 0) window.days.push(day);
        Object.assign(window, { refunds: window.refunds + refunds, views: window.views + views, checkouts: window.checkouts + checkouts });
        for (const [id, f] of Object.entries(byCourse)) {
          const sum = window.byCourse[id] ?? { revenue: 0, sales: 0 };
          window.byCourse[id] = { revenue: sum.revenue + f.revenue, sales: sum.sales + f.sales };
        }
        for (const [code, f] of Object.entries(byCoupon)) {
          const sum = window.byCoupon[code] ?? { redemptions: 0, discount: 0 };
          window.byCoupon[code] = { redemptions: sum.redemptions + f.redemptions, discount: sum.discount + f.discount };
        }
      }
      return window;
    },
    async countFunnel(creatorId, at, step) {
      const day = dayAt(creatorId, at);
      days.set(`${creatorId}/${at.slice(0, 10)}`, { ...day, [step]: day[step] + 1 });
    },
    async monthRevenue(creatorId, month) {
      return months.get(`${creatorId}/${month}`) ?? 0;
    },
  });
  return Object.assign(repo, { orders });
};

/**
 * Everything the payment account, the course checkout and the Connect webhook use, in memory and wired together: one
 * creator (u1), whose payment account can take charges when `ready`.
 */
export const pricedCourse = (over: Partial<StoredCourse> = {}): StoredCourse => ({
  ...courseRecord({ id: 'c1', creatorId: 'u1', description: 'Chop safely.', seatPriceAmount: 0 }),
  lessons: [],
  ...over,
});

/** Receipt marks (data/order-receipts.ts) in memory: a queued receipt goes into `mailQueue` with its mark, at once. */
export const memoryOrderReceipts = (mailQueue: ReturnType<typeof memoryMailQueue>) => {
  const marks = new Map<string, 'sent' | 'queued'>();
  const receipts = withHooks<OrderReceiptMarks>({
    done: async (orderId) => marks.has(orderId),
    async markSent(orderId) {
      if (marks.has(orderId)) return false;
      marks.set(orderId, 'sent');
      return true;
    },
    async queue(orderId, mail) {
      if (marks.has(orderId)) return false;
      marks.set(orderId, 'queued');
      await mailQueue.write(mail);
      return true;
    },
  });
  return Object.assign(receipts, { marks });
};

/** The sales world: course c1 of creator u1, who is on Pro unless `plans` says otherwise (issue 29; `setPlan` moves them). */
export const salesDeps = (options: { now?: string; courses?: StoredCourse[]; plans?: Record<string, PlanLevel> } = {}) => {
  const { subscriptions, setPlan } = planSubscriptions({ u1: 'pro', u2: 'pro', ...options.plans });
  const logged: { message: string; fields: Record<string, unknown> }[] = [];
  const alerts: { message: string; fields: Record<string, unknown> }[] = [];
  const coupons = memoryCoupons();
  const mailQueue = memoryMailQueue();
  const affiliates = memoryAffiliates(mailQueue);
  let n = 0;
  const senderStarts: string[] = [];
  const deps = {
    courses: Object.assign(memoryCourseReader(options.courses ?? [pricedCourse()]), {
      listByCreator: async (creatorId: string) => (options.courses ?? [pricedCourse()]).filter((c) => c.creatorId === creatorId),
    }),
    // The creator's bundles (issue 34): sold as a course is; the analytics name their sales.
    bundles: memoryBundles(),
    payouts: memoryPayouts(),
    connect: memoryConnect(),
    events: memoryConnectEvents(),
    memberships: memoryMemberships(),
    coupons,
    orders: memoryOrders(coupons, affiliates, mailQueue),
    affiliates,
    licenses: memoryLicenses(),
    certificates: memoryHeldCertificates(),
    users: memoryUsers([creator()]),
    directory: memoryDirectory(),
    // The creators' plans (a checkout needs one that sells), and what a seat's invitation checks first
    // (core/mail/on-behalf.ts): not on a trial, today's sends.
    billing: onBehalfFakes(subscriptions).billing,
    setPlan,
    sendQuota: memorySendQuota(),
    enrollments: memoryEnrollments(),
    mailer: memoryMailer(),
    mailQueue,
    receipts: memoryOrderReceipts(mailQueue),
    clock: testClock(options.now ?? NOW),
    ids: sequentialIds('order'),
    appOrigin: APP_ORIGIN,
    ...memoryMailSchools(),
    temporaryPassword: () => `Temp-Pass-${++n}aA`,
    orderIdFor: (courseId: string, key: string) => `ord_${courseId}_${key}`,
    log: (message: string, fields: Record<string, unknown>) => void logged.push({ message, fields }),
    logError: (message: string, fields: Record<string, unknown>) => void logged.push({ message, fields }),
    alert: (message: string, fields: Record<string, unknown>) => void alerts.push({ message, fields }),
    metrics: memoryMetrics(),
    /** The webhook's start of the sender job: recorded (a test runs the sender itself: `sendQueuedMail(d)`). */
    startSender: async (key: string) => void senderStarts.push(key),
    senderStarts,
    logged,
    alerts,
  };
  /** The sender's queued work: a new buyer's account (core/sales/buyer-account.ts), as the job wires it. */
  return Object.assign(deps, { work: async (item: QueuedAccount) => void (await createBuyerAccount(deps, item)) });
};

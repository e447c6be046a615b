import { bundleSaleTitle, SALES_PAGE_SIZE, type CreatorAnalytics, type Sale, type SaleList } from '#contracts/sales.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import { revokeCertificatesOfOrder } from '#core/certificates/access.ts';
import { endLicense, licenseIdOf } from '#core/licenses/licenses.ts';
import { OWN_SOURCE } from '#core/access/access.ts';
import { isBundleOrder, revokeBundle } from '#core/sales/bundle-enrollments.ts';
import type { BundleRepository, CertificateRepository, Clock, CourseRepository, EnrollmentRepository, LicenseRepository, Order, OrderRepository } from '#core/ports.ts';
import type { ConnectPayments } from '#core/sales/ports.ts';

/** The creator's side of their sales: the list, a refund, and the analytics (API.md "Selling courses"). */

export const SALE_NOT_FOUND = 'Sale not found.';
/** The analytics' name for sales of a course or bundle since deleted (the counters keep only its id). */
export const DELETED_COURSE_OR_BUNDLE = 'Deleted course or bundle';

const saleOf = (order: Order): Sale => ({
  id: order.id,
  courseId: order.courseId,
  courseTitle: order.courseTitle,
  buyerEmail: order.buyerEmail ?? '',
  amount: order.amount,
  discount: order.discount,
  currency: order.currency,
  couponCode: order.couponCode,
  affiliateId: order.affiliateId,
  seats: order.seats,
  bundleId: order.bundleId ?? null,
  status: order.status === 'refunded' || order.status === 'disputed' ? order.status : 'paid',
  platformFee: 0,
  createdAt: order.paidAt ?? order.createdAt,
});

/** GET /api/sales: the creator's paid, refunded and disputed orders, newest first, one page. */
export const listSales = async (deps: { orders: Pick<OrderRepository, 'listSales'> }, input: { creatorId: string; cursor?: string | undefined }): Promise<SaleList> => {
  const page = await deps.orders.listSales(input.creatorId, input.cursor, SALES_PAGE_SIZE);
  return { items: page.items.map(saleOf), nextCursor: page.nextCursor };
};

/**
 * A paid order undone (a refund, a dispute): the buyer loses the course (their progress is kept, as when a creator
 * removes a learner) and any certificate it gave (revoked with that reason), then the order moves and its amount
 * leaves the day's counters, once. The access goes first: if
 * the order's move then fails, the next attempt finds the order still paid and finishes.
 */
type ReversalDeps = {
  orders: Pick<OrderRepository, 'markReversed'>;
  enrollments: Pick<EnrollmentRepository, 'remove' | 'revokeSource'>;
  licenses: Pick<LicenseRepository, 'get' | 'seats' | 'end'>;
  certificates: Pick<CertificateRepository, 'heldFor' | 'revoke'>;
  clock: Clock;
};

export const reverseOrder = async (
  deps: ReversalDeps,
  input: { order: Order; to: 'refunded' | 'disputed'; event?: { id: string; type: string } },
): Promise<'applied' | 'duplicate' | 'not-paid'> => {
  const { order } = input;
  if (isBundleOrder(order)) {
    // Every course the bundle gave goes, and its certificate, except a course the learner holds by other means.
    const removed = order.learnerId ? await revokeBundle(deps, order, order.learnerId) : [];
    for (const courseId of removed) await revokeCertificatesOfOrder(deps, { ...order, courseId }, input.to);
  } else {
    // The order's own hold on the course: the enrolment goes unless a bundle of the learner's covers it too.
    if (order.learnerId) await deps.enrollments.revokeSource(order.courseId, order.learnerId, OWN_SOURCE);
    if (order.seats !== null) await endLicense(deps, licenseIdOf(order.id));
    await revokeCertificatesOfOrder(deps, order, input.to);
  }
  return deps.orders.markReversed({
    ...(input.event ? { event: input.event } : {}),
    orderId: input.order.id,
    to: input.to,
    at: deps.clock.now().toISOString(),
  });
};

/**
 * POST /api/sales/{orderId}/refund: the whole payment back to the buyer from the creator's own Stripe account (one
 * refund per order: Stripe's idempotency key `refund:<orderId>`), and the buyer's access revoked. Another creator's
 * order is 404; one not paid (refunded, disputed) is 409. Stripe's `charge.refunded` arrives after and changes nothing.
 */
export const refundSale = async (
  deps: {
    orders: Pick<OrderRepository, 'get' | 'markReversed'>;
    connect: Pick<ConnectPayments, 'refundPayment'>;
    enrollments: Pick<EnrollmentRepository, 'remove' | 'revokeSource'>;
    licenses: Pick<LicenseRepository, 'get' | 'seats' | 'end'>;
    certificates: Pick<CertificateRepository, 'heldFor' | 'revoke'>;
    clock: Clock;
  },
  input: { creatorId: string; orderId: string },
): Promise<Sale> => {
  const order = await deps.orders.get(input.orderId);
  if (!order || order.creatorId !== input.creatorId || order.status === 'pending' || order.status === 'expired') throw new NotFoundError(SALE_NOT_FOUND);
  if (order.status !== 'paid') throw new ConflictError(`This sale is ${order.status} already.`);
  if (!order.paymentIntentId) throw new ConflictError('This sale has no payment to refund.');
  await deps.connect.refundPayment({ accountId: order.accountId, paymentIntentId: order.paymentIntentId, idempotencyKey: `refund:${order.id}` });
  await reverseOrder(deps, { order, to: 'refunded' });
  return saleOf({ ...order, status: 'refunded' });
};

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * GET /api/creator/analytics?days=: the last `days` days (UTC, today included) from the sales counters (the window's
 * month items and at most two day details) and the creator's course and bundle titles, whatever the number of orders.
 * A bundle's sale is one sale, counted under the bundle (its order's `courseId` is the bundle's id), never once per
 * course: its row is named 'Bundle: <title>'. A row whose course or bundle is gone is 'Deleted course or bundle'.
 */
export const creatorAnalytics = async (
  deps: {
    orders: Pick<OrderRepository, 'salesWindow'>;
    courses: Pick<CourseRepository, 'listByCreator'>;
    bundles: Pick<BundleRepository, 'listByCreator'>;
    clock: Clock;
  },
  input: { creatorId: string; days: number },
): Promise<CreatorAnalytics> => {
  const today = Date.parse(`${isoDay(deps.clock.now().getTime())}T00:00:00.000Z`);
  const dates = Array.from({ length: input.days }, (_, i) => isoDay(today - (input.days - 1 - i) * DAY_MS));
  const [window, courses, bundles] = await Promise.all([
    deps.orders.salesWindow(input.creatorId, dates[0]!, dates.at(-1)!),
    deps.courses.listByCreator(input.creatorId),
    deps.bundles.listByCreator(input.creatorId),
  ]);
  const stored = window.days;
  const byDate = new Map(stored.map((day) => [day.date, day]));
  const titles = new Map([...courses.map((course) => [course.id, course.title] as const), ...bundles.map((b) => [b.id, bundleSaleTitle(b.title)] as const)]);
  return {
    currency: 'gbp',
    days: input.days,
    revenue: stored.reduce((sum, day) => sum + day.revenue, 0),
    sales: stored.reduce((sum, day) => sum + day.sales, 0),
    refunds: window.refunds,
    funnel: { views: window.views, checkouts: window.checkouts, paid: stored.reduce((sum, day) => sum + day.sales, 0) },
    series: dates.map((date) => ({ date, revenue: byDate.get(date)?.revenue ?? 0, sales: byDate.get(date)?.sales ?? 0 })),
    byCourse: Object.entries(window.byCourse)
      .map(([courseId, figures]) => ({ courseId, title: titles.get(courseId) ?? DELETED_COURSE_OR_BUNDLE, ...figures }))
      .sort((a, b) => b.revenue - a.revenue || b.sales - a.sales),
    coupons: Object.entries(window.byCoupon)
      .map(([code, used]) => ({ code, ...used }))
      .sort((a, b) => b.redemptions - a.redemptions || b.discount - a.discount || a.code.localeCompare(b.code)),
  };
};

import { hasFeature, planLimits, type PlanLevel } from '#contracts/entitlements.ts';
import type { BundleCheckoutBody } from '#contracts/bundles.ts';
import type { CourseCheckoutBody } from '#contracts/sales.ts';
import { BUNDLE_NOT_FOUND, bundleOnSale } from '#core/bundles/bundles.ts';
import { creatorPlanOf } from '#core/billing/subscription-state.ts';
import { requireOwnOrigin } from '#core/billing/prices.ts';
import { ConflictError, NotFoundError, PayoutsNotReadyError, ValidationError } from '#core/errors.ts';
import { referredAffiliate } from '#core/affiliates/affiliates.ts';
import type { AffiliateRepository, BillingRepository, BundleRepository, Clock, CourseRepository, Ids, Order, OrderRepository } from '#core/ports.ts';
import type { ConnectPayments, CouponRepository, PayoutRepository } from '#core/sales/ports.ts';
import { redeemableCoupon } from '#core/sales/coupons.ts';

/** A course checkout stays open this long (Stripe allows 30 minutes to 24 hours): long enough to pay, short enough to let go of. */
export const COURSE_CHECKOUT_MINUTES = 60;
export const COURSE_NOT_ON_SALE = 'Course not found.';
export const TEAMS_NOT_ON_SALE = 'This course is not sold to teams: buy one place, or ask the creator for a team licence.';
export const TEAM_TOO_LARGE = 'That is more than one payment can take: buy fewer seats, or ask the creator for a team licence.';
/** A course whose creator's plan does not sell (none, or ended: issue 29): what the buyer is told (409). */
export const NOT_ON_SALE_NOW = 'This course is not on sale at the moment.';
export const teamTooLargeForCreator = (max: number): string => `Team licences of this course are sold for up to ${max} seats: buy ${max} or fewer, or ask the creator for a larger licence.`;

/**
 * What a creator's plan lets a visitor buy of their courses (issue 29): whether they sell at all (`sales`), and the most
 * seats of one team licence (Starter's limit; null: any number, advanced licensing).
 */
export const salesTermsOf = (plan: PlanLevel): { onSale: boolean; teamSeatsMax: number | null } => ({
  onSale: hasFeature(plan, 'sales'),
  teamSeatsMax: hasFeature(plan, 'advancedLicensing') ? null : planLimits[plan].teamLicenseSeats,
});

/** Stripe's largest single charge in GBP (£999,999.99). */
const LARGEST_CHARGE = 99_999_999;

export interface CourseCheckoutDeps {
  courses: Pick<CourseRepository, 'getCourse'>;
  payouts: Pick<PayoutRepository, 'get'>;
  orders: OrderRepository;
  coupons: Pick<CouponRepository, 'get'>;
  affiliates: Pick<AffiliateRepository, 'code' | 'click'>;
  connect: Pick<ConnectPayments, 'createCourseCheckout'>;
  /** The creator's plan: a course sells only while it includes `sales` (issue 29). */
  billing: Pick<BillingRepository, 'getSubscription'>;
  clock: Clock;
  ids: Ids;
  appOrigin: string;
  /** A stable order id for a client's Idempotency-Key on this course (a retry finds the order it made). */
  orderIdFor: (courseId: string, idempotencyKey: string) => string;
}

/**
 * POST /api/public/courses/{courseId}/checkout (no sign-in): one learner's place in a published, priced course, or
 * with `seats` a team licence (seats x the seat price; 400 when the course has none), paid on the creator's own Stripe
 * account. Steps: 1. the course (404 unless published and priced); 1b. the creator's plan sells (409 CONFLICT
 * NOT_ON_SALE_NOW otherwise: a plan that ended stops new sales) and allows the team's size (Starter: up to 10 seats, 400
 * on `seats`); 2. the creator's account can take charges (409
 * PAYOUTS_NOT_READY); 3. the buyer's email is never looked up here: the answer is the same whoever it belongs to
 * (an email that cannot take the course, or lead the team, is resolved after the payment, privately: refunded and
 * told by email, orders.ts); 3b. the coupon, when given, passes our rules (400 COUPON_INVALID with the reason); it is
 * one use per buyer, counted against the email the payment carries (given here, or typed on Stripe's hosted page when
 * not: API.md's body has no email), in the paid order's own transaction (orders.ts); 3c. the affiliate it is credited to (a coupon tied to one, or the `ref` of a click still in its
 * window); 4. a pending order at the stored price (never the client's); 5. the
 * hosted checkout on the creator's account, its id kept on the order. The same Idempotency-Key answers the same page.
 */
export const startCourseCheckout = async (
  deps: CourseCheckoutDeps,
  input: { courseId: string; body: CourseCheckoutBody; idempotencyKey?: string | undefined },
): Promise<{ url: string }> => {
  const { body } = input;
  requireOwnOrigin(deps.appOrigin, { successUrl: body.successUrl, cancelUrl: body.cancelUrl });
  const course = await deps.courses.getCourse(input.courseId);
  if (!course || course.status !== 'published' || course.priceAmount === 0) throw new NotFoundError(COURSE_NOT_ON_SALE);
  // A team licence: seats x the course's seat price, bought by its future group leader.
  const seats = body.seats ?? null;
  if (seats !== null && course.seatPriceAmount === 0) throw new ValidationError(TEAMS_NOT_ON_SALE, [{ path: 'seats', code: 'custom', message: TEAMS_NOT_ON_SALE }]);
  const price = seats === null ? course.priceAmount : seats * course.seatPriceAmount;
  if (price > LARGEST_CHARGE) throw new ValidationError(TEAM_TOO_LARGE, [{ path: 'seats', code: 'custom', message: TEAM_TOO_LARGE }]);
  const terms = salesTermsOf(await creatorPlanOf(deps, course.creatorId));
  if (!terms.onSale) throw new ConflictError(NOT_ON_SALE_NOW);
  if (seats !== null && terms.teamSeatsMax !== null && seats > terms.teamSeatsMax) {
    const message = teamTooLargeForCreator(terms.teamSeatsMax);
    throw new ValidationError(message, [{ path: 'seats', code: 'custom', message }]);
  }
  return sell(deps, {
    product: course,
    price,
    seats,
    body,
    idempotencyKey: input.idempotencyKey,
    pageTitle: seats === null ? course.title : `${course.title}: team licence, ${seats} seats`,
  });
};

/**
 * A course's and a bundle's checkout alike, once the product is on sale at `price`: 2. the creator's account can take
 * charges (409 PAYOUTS_NOT_READY); 3b. the coupon, when given, passes our rules (400 COUPON_INVALID; `product.id` is
 * what a coupon for some courses must name); 3c. the affiliate it is credited to; then the pending order (`bundle`: the
 * bundle's own fields) and its page (openCheckout).
 */
const sell = async (
  deps: Omit<CourseCheckoutDeps, 'courses'>,
  sale: {
    product: { id: string; title: string; creatorId: string };
    price: number;
    seats: number | null;
    body: Omit<CourseCheckoutBody, 'seats'>;
    idempotencyKey?: string | undefined;
    pageTitle: string;
    bundle?: Required<Pick<Order, 'bundleId' | 'courseIds' | 'courseTitles'>>;
  },
): Promise<{ url: string }> => {
  const { product, price, body } = sale;
  const payouts = await deps.payouts.get(product.creatorId);
  if (!payouts?.chargesEnabled) throw new PayoutsNotReadyError();
  const discounted = body.couponCode ? await redeemableCoupon(deps, { creatorId: product.creatorId, code: body.couponCode, courseId: product.id, price }) : undefined;
  const affiliateId = await referredAffiliate(deps, { creatorId: product.creatorId, ref: body.ref, couponAffiliateId: discounted?.coupon.affiliateId });

  const fresh: Order = {
    id: sale.idempotencyKey ? deps.orderIdFor(product.id, sale.idempotencyKey) : deps.ids.newId(),
    courseId: product.id,
    courseTitle: product.title,
    creatorId: product.creatorId,
    accountId: payouts.accountId,
    status: 'pending',
    buyerEmail: body.email ?? null,
    price,
    discount: discounted?.discount ?? 0,
    amount: price - (discounted?.discount ?? 0),
    currency: 'gbp',
    couponCode: discounted?.coupon.code ?? null,
    affiliateId,
    seats: sale.seats,
    checkoutSessionId: null,
    checkoutUrl: null,
    paymentIntentId: null,
    learnerId: null,
    createdAt: deps.clock.now().toISOString(),
    paidAt: null,
    ...sale.bundle,
  };
  return openCheckout(deps, fresh, {
    title: sale.pageTitle,
    promotionCodeId: discounted?.coupon.promotionCodeId,
    email: body.email,
    successUrl: body.successUrl,
    cancelUrl: body.cancelUrl,
  });
};

/**
 * The pending order written (the price stored, never the client's) and its hosted checkout on the creator's account,
 * its id kept on the order: a course's and a bundle's checkout alike. The same Idempotency-Key answers the same page.
 */
const openCheckout = async (
  deps: Pick<CourseCheckoutDeps, 'orders' | 'connect'>,
  fresh: Order,
  page: { title: string; promotionCodeId?: string | undefined; email?: string | undefined; successUrl: string; cancelUrl: string },
): Promise<{ url: string }> => {
  const created = await deps.orders.create(fresh);
  // The same request again (its Idempotency-Key): the page it made; or, when that request failed before making one
  // (Stripe did not answer), the same order's page now: Stripe's idempotency key gives back a session already made.
  const order = created ? fresh : await deps.orders.get(fresh.id);
  if (!order || order.status !== 'pending') throw new ConflictError('This purchase is over: start a new one.');
  if (order.checkoutUrl) return { url: order.checkoutUrl };
  const session = await deps.connect.createCourseCheckout({
    accountId: order.accountId,
    orderId: order.id,
    courseId: order.courseId,
    courseTitle: page.title,
    // The full price, and the promotion code on Stripe's side: Stripe applies the discount and holds the coupon's cap.
    amount: order.price,
    ...(page.promotionCodeId ? { promotionCodeId: page.promotionCodeId } : {}),
    ...(page.email ? { email: page.email } : {}),
    successUrl: page.successUrl,
    cancelUrl: page.cancelUrl,
    // From the order, not the clock: a retry sends Stripe the very same request under the same idempotency key (a
    // changed parameter would be refused as a different request, and the checkout could never be started again).
    expiresAt: new Date(Date.parse(order.createdAt) + COURSE_CHECKOUT_MINUTES * 60_000),
    idempotencyKey: `course-checkout:${order.id}`,
  });
  await deps.orders.setCheckout(order.id, session);
  // Counted when its page is first made (a retry that found the page answered above).
  await deps.orders.countFunnel(order.creatorId, order.createdAt, 'checkouts');
  return { url: session.url };
};

export interface BundleCheckoutDeps extends Omit<CourseCheckoutDeps, 'courses'> {
  bundles: Pick<BundleRepository, 'get'>;
  courses: Pick<CourseRepository, 'listByCreator'>;
}

/**
 * POST /api/public/bundles/{bundleId}/checkout (no sign-in): a bundle bought as a course is (startCourseCheckout's
 * steps and answers): on sale (active, every course published: 404 otherwise), the creator's plan sells, their account
 * takes charges; a coupon for all the creator's courses (or one naming the bundle) and the affiliate's `ref` as for a
 * course; one pending order naming the bundle and its courses as they are now (`courseId` the bundle's id, its title
 * the bundle's), paid on the creator's account. Paid, it enrols the buyer in every course once (orders.ts).
 */
export const startBundleCheckout = async (
  deps: BundleCheckoutDeps,
  input: { bundleId: string; body: BundleCheckoutBody; idempotencyKey?: string | undefined },
): Promise<{ url: string }> => {
  const { body } = input;
  requireOwnOrigin(deps.appOrigin, { successUrl: body.successUrl, cancelUrl: body.cancelUrl });
  const found = await bundleOnSale(deps, input.bundleId);
  if (!found) throw new NotFoundError(BUNDLE_NOT_FOUND);
  const { bundle, courses } = found;
  if (!salesTermsOf(await creatorPlanOf(deps, bundle.creatorId)).onSale) throw new ConflictError(NOT_ON_SALE_NOW);
  return sell(deps, {
    product: bundle,
    price: bundle.priceAmount,
    seats: null,
    body,
    idempotencyKey: input.idempotencyKey,
    pageTitle: `${bundle.title} (bundle of ${bundle.courseIds.length} courses)`,
    bundle: { bundleId: bundle.id, courseIds: courses.map((c) => c.id), courseTitles: courses.map((c) => c.title) },
  });
};

import { type Coupon, type CouponList, type CreateCouponBody, discountOf, type UpdateCouponBody, COUPONS_PER_CREATOR_MAX } from '#contracts/coupons.ts';
import { PAGE_SIZE, type PageRequest } from '#contracts/common.ts';
import { PRICE_MIN_PENCE } from '#contracts/courses.ts';
import { ConflictError, CouponInvalidError, NotFoundError, PayoutsNotReadyError, ValidationError } from '#core/errors.ts';
import type { AffiliateRepository, Clock } from '#core/ports.ts';
import type { ConnectPayments, CouponRepository, PayoutRepository, StoredCoupon } from '#core/sales/ports.ts';

/**
 * A creator's coupons: made here and mirrored as a coupon and promotion code on the creator's own Stripe account, so
 * that Stripe holds the cap and the expiry even under concurrent checkouts; checked by our rules before a checkout
 * (a reason the buyer can read); counted once per paid order by the webhook.
 */
export const COUPON_NOT_FOUND = 'Coupon not found.';
export const CONNECT_FIRST = 'Connect your Stripe account in your profile before creating coupons: they live on it.';

export interface CouponDeps {
  coupons: CouponRepository;
  payouts: Pick<PayoutRepository, 'get'>;
  connect: Pick<ConnectPayments, 'createPromotion' | 'setPromotionActive' | 'deletePromotion'>;
  clock: Clock;
  /** A coupon tied to an affiliate credits them (checked to be the creator's own). */
  affiliates: Pick<AffiliateRepository, 'get'>;
}

export const couponView = ({ creatorId: _c, accountId: _a, stripeCouponId: _s, promotionCodeId: _p, ...coupon }: StoredCoupon): Coupon => coupon;

const own = async (deps: Pick<CouponDeps, 'coupons'>, creatorId: string, code: string): Promise<StoredCoupon> => {
  const found = await deps.coupons.get(creatorId, code.toUpperCase());
  if (!found) throw new NotFoundError(COUPON_NOT_FOUND);
  return found;
};

/** GET /api/coupons?cursor=&limit=: newest first, a page at a time. */
export const listCoupons = async (deps: { coupons: Pick<CouponRepository, 'page'> }, creatorId: string, request: Partial<PageRequest> = {}): Promise<CouponList> => {
  const page = await deps.coupons.page(creatorId, { cursor: request.cursor, limit: request.limit ?? PAGE_SIZE });
  return { items: page.items.map(couponView), nextCursor: page.nextCursor };
};

/** Stripe's twin of a coupon with these limits (its own cap counts only what is left of ours). */
const mirror = (deps: CouponDeps, input: { accountId: string; code: string; kind: 'percent' | 'amount'; value: number; maxRedemptions: number | null; redeemed: number; expiresAt: string | null; key: string }) =>
  deps.connect.createPromotion({
    accountId: input.accountId,
    code: input.code,
    kind: input.kind,
    value: input.value,
    maxRedemptions: input.maxRedemptions === null ? null : input.maxRedemptions - input.redeemed,
    expiresAt: input.expiresAt,
    idempotencyKey: input.key,
  });

/** POST /api/coupons: 409 on a code the creator has, PAYOUTS_NOT_READY before a Stripe account is connected. */
export const createCoupon = async (deps: CouponDeps, input: { creatorId: string; body: CreateCouponBody }): Promise<Coupon> => {
  const { body } = input;
  if (body.expiresAt && Date.parse(body.expiresAt) <= deps.clock.now().getTime()) throw new ValidationError('The expiry is in the past.', [{ path: 'expiresAt', code: 'custom', message: 'Choose a date in the future.' }]);
  const account = await deps.payouts.get(input.creatorId);
  if (!account) throw new PayoutsNotReadyError(CONNECT_FIRST);
  if (await deps.coupons.get(input.creatorId, body.code)) throw new ConflictError(`You have a coupon ${body.code} already.`);
  if (body.affiliateId && !(await deps.affiliates.get(input.creatorId, body.affiliateId))) {
    throw new ValidationError('That affiliate is not one of yours.', [{ path: 'affiliateId', code: 'custom', message: 'Choose one of your affiliates.' }]);
  }
  if ((await deps.coupons.list(input.creatorId)).length >= COUPONS_PER_CREATOR_MAX) throw new ConflictError(`You can have at most ${COUPONS_PER_CREATOR_MAX} coupons.`);
  const now = deps.clock.now().toISOString();
  const twin = await mirror(deps, { accountId: account.accountId, ...body, maxRedemptions: body.maxRedemptions ?? null, redeemed: 0, expiresAt: body.expiresAt ?? null, key: `coupon:${input.creatorId}:${body.code}:${now}` });
  const coupon: StoredCoupon = {
    creatorId: input.creatorId,
    code: body.code,
    kind: body.kind,
    value: body.value,
    courseIds: body.courseIds,
    maxRedemptions: body.maxRedemptions ?? null,
    expiresAt: body.expiresAt ?? null,
    redeemed: 0,
    active: true,
    affiliateId: body.affiliateId ?? null,
    createdAt: now,
    accountId: account.accountId,
    stripeCouponId: twin.couponId,
    promotionCodeId: twin.promotionCodeId,
  };
  if (!(await deps.coupons.create(coupon))) {
    await deps.connect.deletePromotion({ accountId: account.accountId, couponId: twin.couponId });
    throw new ConflictError(`You have a coupon ${body.code} already.`);
  }
  return couponView(coupon);
};

/**
 * PATCH /api/coupons/{code}: on/off (the Stripe promotion code follows), or new limits (Stripe's twin is made again
 * with what is left of the cap: a promotion code's limits cannot change). A cap below what was redeemed is 400.
 */
export const updateCoupon = async (deps: CouponDeps, input: { creatorId: string; code: string; body: UpdateCouponBody }): Promise<Coupon> => {
  const coupon = await own(deps, input.creatorId, input.code);
  const { body } = input;
  if (body.maxRedemptions != null && body.maxRedemptions < coupon.redeemed) {
    throw new ValidationError(`It was used ${coupon.redeemed} times already.`, [{ path: 'maxRedemptions', code: 'custom', message: `At least ${coupon.redeemed}.` }]);
  }
  const limits = { maxRedemptions: body.maxRedemptions === undefined ? coupon.maxRedemptions : body.maxRedemptions, expiresAt: body.expiresAt === undefined ? coupon.expiresAt : body.expiresAt };
  const limitsChanged = limits.maxRedemptions !== coupon.maxRedemptions || limits.expiresAt !== coupon.expiresAt;
  let twin = { stripeCouponId: coupon.stripeCouponId, promotionCodeId: coupon.promotionCodeId };
  if (limitsChanged) {
    await deps.connect.deletePromotion({ accountId: coupon.accountId, couponId: coupon.stripeCouponId });
    const made = await mirror(deps, { ...coupon, ...limits, key: `coupon:${input.creatorId}:${coupon.code}:${deps.clock.now().toISOString()}` });
    twin = { stripeCouponId: made.couponId, promotionCodeId: made.promotionCodeId };
  }
  const active = body.active ?? coupon.active;
  if (active !== coupon.active || (limitsChanged && !active)) await deps.connect.setPromotionActive({ accountId: coupon.accountId, promotionCodeId: twin.promotionCodeId, active });
  const saved = await deps.coupons.update(input.creatorId, coupon.code, { active, ...limits, ...twin });
  if (!saved) throw new NotFoundError(COUPON_NOT_FOUND);
  return couponView(saved);
};

/** DELETE /api/coupons/{code}: gone here and on Stripe (its code stops working at once). */
export const deleteCoupon = async (deps: CouponDeps, input: { creatorId: string; code: string }): Promise<void> => {
  const coupon = await own(deps, input.creatorId, input.code);
  await deps.connect.deletePromotion({ accountId: coupon.accountId, couponId: coupon.stripeCouponId });
  if (!(await deps.coupons.delete(input.creatorId, coupon.code))) throw new NotFoundError(COUPON_NOT_FOUND);
};

/**
 * Our rules before a checkout, each with a reason the buyer can read (400 COUPON_INVALID): the code exists and is on,
 * not expired, not used up, for this course, and leaves a payable price (0 or at least 30p). Whether this buyer used
 * it already is not said here (that would tell anyone what an email bought): the paid order's transaction holds one
 * use per buyer, and a second one is refunded and the buyer told (orders.ts).
 */
export const redeemableCoupon = async (
  deps: { coupons: Pick<CouponRepository, 'get'>; clock: Clock },
  input: { creatorId: string; code: string; courseId: string; price: number },
): Promise<{ coupon: StoredCoupon; discount: number }> => {
  const coupon = await deps.coupons.get(input.creatorId, input.code.toUpperCase());
  if (!coupon || !coupon.active) throw new CouponInvalidError(`The coupon code ${input.code} does not exist.`);
  if (coupon.expiresAt && Date.parse(coupon.expiresAt) <= deps.clock.now().getTime()) throw new CouponInvalidError(`The coupon code ${input.code} has expired.`);
  if (coupon.maxRedemptions !== null && coupon.redeemed >= coupon.maxRedemptions) throw new CouponInvalidError(`The coupon code ${input.code} has been used up.`);
  if (coupon.courseIds && !coupon.courseIds.includes(input.courseId)) throw new CouponInvalidError(`The coupon code ${input.code} is not for this course.`);
  const discount = discountOf(coupon, input.price);
  const left = input.price - discount;
  if (left > 0 && left < PRICE_MIN_PENCE) throw new CouponInvalidError(`The coupon code ${input.code} leaves less than the smallest payment (£0.30).`);
  return { coupon, discount };
};

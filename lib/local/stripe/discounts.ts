import type { ConnectedData, ConnectLineItem, Coupon, PromotionCode } from './connect-state.ts';
import { missing, StripeApiError } from './errors.ts';
import { list, obj, str, type FormObject, type FormValue } from './form.ts';
import { boolean, integer, metadata, paginate, required } from './params.ts';
import { mergeMetadata, newId, nowSeconds } from './state.ts';

/**
 * Coupons and promotion codes on a connected account, with Stripe's rules: a code can be used while it is active,
 * before its `expires_at` and under its `max_redemptions`, and so can its coupon (`redeem_by`, `max_redemptions`).
 * A redemption counts when a session using it is paid, so a code can run out between a session's creation and its
 * Pay: the check is made again at Pay, in the same synchronous step as the count (no two payments interleave).
 */

const percent = (value: FormValue | undefined, param: string): number | undefined => {
  const text = str(value);
  if (text === undefined) return undefined;
  const parsed = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || parsed <= 0 || parsed > 100) {
    throw new StripeApiError(400, 'Invalid decimal: percent_off must be greater than 0 and at most 100.', 'parameter_invalid_decimal', param);
  }
  return parsed;
};

const future = (value: FormValue | undefined, param: string): number | undefined => {
  const at = integer(value, param);
  if (at !== undefined && at <= nowSeconds()) throw new StripeApiError(400, `The \`${param}\` timestamp must be in the future.`, 'parameter_invalid_integer', param);
  return at;
};

const generatedCode = (): string => newId('x', 8).slice(2).toUpperCase();

/** Why the code (or its coupon) cannot be used now, in Stripe's words; undefined when it can. */
export const notRedeemable = (data: ConnectedData, promo: PromotionCode | undefined, couponId: string | null, now = nowSeconds()): string | undefined => {
  if (promo) {
    if (!promo.active) return 'This promotion code cannot be redeemed because it is inactive.';
    if (promo.expires_at !== null && now >= promo.expires_at) return 'This promotion code cannot be redeemed because it has expired.';
    if (promo.max_redemptions !== null && promo.times_redeemed >= promo.max_redemptions) {
      return 'This promotion code cannot be redeemed because it has reached its maximum number of redemptions.';
    }
  }
  const coupon = couponId ? data.coupons[couponId] : undefined;
  const what = promo ? 'This promotion code cannot be redeemed because its coupon' : 'This coupon';
  if (!coupon) return `${what} no longer exists.`;
  if (coupon.redeem_by !== null && now >= coupon.redeem_by) return `${what} has expired.`;
  if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) {
    return `${what} has reached its maximum number of redemptions.`;
  }
  return undefined;
};

/** `valid` as Stripe reports it: false once past `redeem_by` or out of redemptions. */
const refreshed = (coupon: Coupon): Coupon => {
  const now = nowSeconds();
  coupon.valid =
    !(coupon.redeem_by !== null && now >= coupon.redeem_by) &&
    !(coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions);
  return coupon;
};

export const discounts = () => {
  const coupon = (data: ConnectedData, id: string, param = 'id', status = 404): Coupon => {
    const found = data.coupons[id];
    if (!found) throw missing('coupon', id, param, status);
    return refreshed(found);
  };

  const promotionCode = (data: ConnectedData, id: string, param = 'id', status = 404): PromotionCode => {
    const found = data.promotionCodes[id];
    if (!found) throw missing('promotion_code', id, param, status);
    return found;
  };

  const activeWithCode = (data: ConnectedData, code: string, except?: string): PromotionCode | undefined =>
    Object.values(data.promotionCodes).find((item) => item.active && item.id !== except && item.code.toLowerCase() === code.toLowerCase());

  return {
    coupon,
    promotionCode,
    notRedeemable,

    createCoupon(data: ConnectedData, params: FormObject): Coupon {
      const percentOff = percent(params.percent_off, 'percent_off');
      const amountOff = integer(params.amount_off, 'amount_off', 1);
      if (percentOff !== undefined && amountOff !== undefined) {
        throw new StripeApiError(400, 'You may only specify one of these parameters: amount_off, percent_off.', 'parameter_unknown', 'amount_off');
      }
      if (percentOff === undefined && amountOff === undefined) {
        throw new StripeApiError(400, 'You must specify either `amount_off` or `percent_off`.', 'parameter_missing', 'percent_off');
      }
      const currency = str(params.currency)?.toLowerCase();
      if (amountOff !== undefined && !currency) {
        throw new StripeApiError(400, 'You must specify `currency` when passing `amount_off`.', 'parameter_missing', 'currency');
      }
      const duration = str(params.duration) ?? 'once';
      if (duration !== 'once' && duration !== 'forever' && duration !== 'repeating') {
        throw new StripeApiError(400, `Invalid duration: must be one of once, forever, or repeating`, 'parameter_invalid_string', 'duration');
      }
      const months = integer(params.duration_in_months, 'duration_in_months', 1) ?? null;
      if (duration === 'repeating' && months === null) {
        throw new StripeApiError(400, 'You must specify `duration_in_months` when `duration` is `repeating`.', 'parameter_missing', 'duration_in_months');
      }
      const id = str(params.id) || generatedCode();
      if (data.coupons[id]) throw new StripeApiError(400, 'Coupon already exists.', 'resource_already_exists', 'id');
      const products = (list(obj(params.applies_to)?.products) ?? []).map((item, index) => required(str(item), `applies_to[products][${index}]`));
      const created: Coupon = {
        id,
        object: 'coupon',
        amount_off: amountOff ?? null,
        ...(products.length > 0 ? { applies_to: { products } } : {}),
        created: nowSeconds(),
        currency: amountOff !== undefined ? (currency ?? null) : null,
        duration,
        duration_in_months: duration === 'repeating' ? months : null,
        livemode: false,
        max_redemptions: integer(params.max_redemptions, 'max_redemptions', 1) ?? null,
        metadata: mergeMetadata({}, metadata(params.metadata)),
        name: str(params.name) || null,
        percent_off: percentOff ?? null,
        redeem_by: future(params.redeem_by, 'redeem_by') ?? null,
        times_redeemed: 0,
        valid: true,
      };
      data.coupons[id] = created;
      return created;
    },

    /** Deleting a coupon stops new redemptions of it and of its promotion codes; sessions already paid keep theirs. */
    deleteCoupon(data: ConnectedData, id: string) {
      coupon(data, id);
      delete data.coupons[id];
      return { id, object: 'coupon' as const, deleted: true as const };
    },

    listCoupons: (data: ConnectedData, params: FormObject) => paginate(Object.values(data.coupons).map(refreshed), params, '/v1/coupons'),

    createPromotionCode(data: ConnectedData, params: FormObject): PromotionCode {
      // The pinned API version takes `promotion[coupon]` (with `promotion[type]=coupon`); older ones took `coupon`.
      const promotion = obj(params.promotion);
      const couponId = str(promotion?.coupon) ?? str(params.coupon);
      if (!couponId) throw new StripeApiError(400, 'Missing required param: promotion[coupon].', 'parameter_missing', 'promotion[coupon]');
      const type = str(promotion?.type);
      if (type !== undefined && type !== 'coupon') {
        throw new StripeApiError(400, 'Invalid promotion[type]: must be coupon', 'parameter_invalid_string', 'promotion[type]');
      }
      const target = coupon(data, couponId, promotion ? 'promotion[coupon]' : 'coupon', 400);
      const code = str(params.code) || generatedCode();
      if (!/^[A-Za-z0-9_-]{1,500}$/.test(code)) {
        throw new StripeApiError(400, 'A promotion code may contain letters, digits, dashes and underscores only.', 'parameter_invalid_string', 'code');
      }
      const active = boolean(params.active, 'active') ?? true;
      if (active && activeWithCode(data, code)) {
        throw new StripeApiError(400, `An active promotion code with \`code: ${code}\` already exists.`, 'resource_already_exists', 'code');
      }
      const expiresAt = future(params.expires_at, 'expires_at') ?? null;
      if (expiresAt !== null && target.redeem_by !== null && expiresAt > target.redeem_by) {
        throw new StripeApiError(400, "The promotion code's `expires_at` may not be later than its coupon's `redeem_by`.", 'parameter_invalid_integer', 'expires_at');
      }
      const restrictions = obj(params.restrictions);
      const minimum = integer(restrictions?.minimum_amount, 'restrictions[minimum_amount]', 1) ?? null;
      const created: PromotionCode = {
        id: newId('promo'),
        object: 'promotion_code',
        active,
        code,
        created: nowSeconds(),
        customer: null,
        customer_account: null,
        expires_at: expiresAt,
        livemode: false,
        max_redemptions: integer(params.max_redemptions, 'max_redemptions', 1) ?? null,
        metadata: mergeMetadata({}, metadata(params.metadata)),
        promotion: { coupon: target.id, type: 'coupon' },
        restrictions: {
          first_time_transaction: boolean(restrictions?.first_time_transaction, 'restrictions[first_time_transaction]') ?? false,
          minimum_amount: minimum,
          minimum_amount_currency: minimum === null ? null : (str(restrictions?.minimum_amount_currency)?.toLowerCase() ?? target.currency ?? 'gbp'),
        },
        times_redeemed: 0,
      };
      data.promotionCodes[created.id] = created;
      return created;
    },

    updatePromotionCode(data: ConnectedData, id: string, params: FormObject): PromotionCode {
      const found = promotionCode(data, id);
      const active = boolean(params.active, 'active');
      if (active === true && !found.active && activeWithCode(data, found.code, found.id)) {
        throw new StripeApiError(400, `An active promotion code with \`code: ${found.code}\` already exists.`, 'resource_already_exists', 'active');
      }
      const nextMetadata = metadata(params.metadata);
      if (active !== undefined) found.active = active;
      found.metadata = mergeMetadata(found.metadata, nextMetadata);
      return found;
    },

    listPromotionCodes(data: ConnectedData, params: FormObject) {
      const code = str(params.code)?.toLowerCase();
      const active = boolean(params.active, 'active');
      const couponId = str(params.coupon);
      const matches = Object.values(data.promotionCodes).filter(
        (item) =>
          (code === undefined || item.code.toLowerCase() === code) &&
          (active === undefined || item.active === active) &&
          (!couponId || item.promotion.coupon === couponId),
      );
      return paginate(matches, params, '/v1/promotion_codes');
    },

    /**
     * The discount a coupon gives on these lines (they are changed in place: `amount_discount`, `amount_total`).
     * Only lines whose product the coupon applies to are discounted; an amount off is spread over them by amount.
     */
    apply(target: Coupon, lines: ConnectLineItem[], currency: string, param: string): number {
      if (target.amount_off !== null && target.currency !== currency) {
        throw new StripeApiError(400, `This coupon's currency (${target.currency}) does not match the currency of this Checkout Session (${currency}).`, undefined, param);
      }
      const eligible = lines.filter((line) => !target.applies_to || target.applies_to.products.includes(line.price.product));
      if (eligible.length === 0) {
        throw new StripeApiError(400, 'This coupon cannot be applied: it applies to none of the products in this Checkout Session.', undefined, param);
      }
      const base = eligible.reduce((sum, line) => sum + line.amount_subtotal, 0);
      const wanted = target.percent_off !== null ? Math.round((base * target.percent_off) / 100) : Math.min(target.amount_off ?? 0, base);
      let left = wanted;
      eligible.forEach((line, index) => {
        const share = index === eligible.length - 1 ? left : Math.round((wanted * line.amount_subtotal) / base);
        line.amount_discount = share;
        line.amount_total = line.amount_subtotal - share;
        left -= share;
      });
      return wanted;
    },

    /** Counts one use of the code and its coupon (a paid session). */
    redeem(data: ConnectedData, promo: PromotionCode | undefined, couponId: string | null): void {
      if (promo) promo.times_redeemed += 1;
      const target = couponId ? data.coupons[couponId] : undefined;
      if (target) {
        target.times_redeemed += 1;
        refreshed(target);
      }
    },
  };
};

export type Discounts = ReturnType<typeof discounts>;

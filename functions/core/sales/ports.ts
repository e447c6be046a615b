import type { PageRequest, Paged } from '#contracts/common.ts';
import type { MembershipEvent, MembershipPayments, QueuedMail } from '#core/ports.ts';
/**
 * The ports only the use cases of core/sales use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/** What the provider says of a connected account, as the platform mirrors it. */
export interface ConnectedAccountState {
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** The provider's requirement names still due (past due first). */
  requirements: string[];
}

/** A creator's payment account as stored. */
export interface PayoutAccount extends ConnectedAccountState {
  userId: string;
  accountId: string;
  /** The provider's time (epoch seconds) of the state last applied: an older event changes nothing. */
  lastEventAt: number;
  createdAt: string;
  updatedAt: string;
}

export interface PayoutRepository {
  get(userId: string): Promise<PayoutAccount | undefined>;
  /**
   * The creator's account and its owner lookup (account id -> creator), written once. Answers what is stored: the
   * account given, or the one a concurrent request stored first.
   */
  create(account: PayoutAccount): Promise<PayoutAccount>;
  /** The creator whose connected account this is. */
  ownerOf(accountId: string): Promise<string | undefined>;
  /**
   * The provider's state of the account, applied once per event (the event recorded in the same transaction) and only
   * when newer than the state stored: 'stale' for an older one (recorded all the same), 'duplicate' for a repeat,
   * 'unknown' for an account the platform does not hold (nothing written).
   */
  applyAccountEvent(input: { event: { id: string; type: string }; accountId: string; eventAt: number; state: ConnectedAccountState; updatedAt: string }): Promise<'applied' | 'stale' | 'duplicate' | 'unknown'>;
}

/** Stripe Connect: Standard accounts and their hosted onboarding, through the platform's API key. */
export interface ConnectPayments extends MembershipPayments {
  /** A Standard connected account for the creator; the same creator gets the same account on a retry. */
  createConnectedAccount(input: { userId: string; email: string }): Promise<{ accountId: string; state: ConnectedAccountState; eventAt: number }>;
  /** A single-use, short-lived onboarding link (its refresh URL asks the app for a new one). */
  createAccountLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }>;
  /**
   * A hosted Checkout Session for one course, charged directly on the creator's connected account with no application
   * fee: one line of `amount` pence named after the course, `orderId` in its metadata. The same idempotency key
   * answers the same session.
   */
  createCourseCheckout(input: {
    accountId: string;
    orderId: string;
    courseId: string;
    courseTitle: string;
    amount: number;
    /** The promotion code (on that account) that takes the coupon's discount off `amount`. */
    promotionCodeId?: string;
    email?: string;
    successUrl: string;
    cancelUrl: string;
    expiresAt: Date;
    idempotencyKey: string;
  }): Promise<{ id: string; url: string }>;
  /** Refunds a payment in full on the creator's account; the same idempotency key refunds once. */
  refundPayment(input: { accountId: string; paymentIntentId: string; idempotencyKey: string }): Promise<void>;
  /**
   * A coupon and its customer-facing promotion code on the creator's account, so that Stripe itself holds the cap
   * (`maxRedemptions`) and the expiry even under concurrent checkouts. Answers the promotion code's id.
   */
  createPromotion(input: {
    accountId: string;
    code: string;
    kind: 'percent' | 'amount';
    value: number;
    maxRedemptions: number | null;
    expiresAt: string | null;
    idempotencyKey: string;
  }): Promise<{ couponId: string; promotionCodeId: string }>;
  /** Switches the promotion code on or off on the creator's account. */
  setPromotionActive(input: { accountId: string; promotionCodeId: string; active: boolean }): Promise<void>;
  /** Deletes the coupon on the creator's account (its promotion codes stop working). */
  deletePromotion(input: { accountId: string; couponId: string }): Promise<void>;
}

/** A coupon as stored: the contract's view, its owner, and its twin on the creator's Stripe account. */
export interface StoredCoupon {
  creatorId: string;
  code: string;
  kind: 'percent' | 'amount';
  value: number;
  courseIds: string[] | null;
  maxRedemptions: number | null;
  expiresAt: string | null;
  redeemed: number;
  active: boolean;
  /** The affiliate a sale with this coupon is credited to, or null. */
  affiliateId: string | null;
  createdAt: string;
  accountId: string;
  stripeCouponId: string;
  promotionCodeId: string;
}

export interface CouponRepository {
  list(creatorId: string): Promise<StoredCoupon[]>;
  /** One page of the creator's coupons, newest first, with their redemptions. */
  page(creatorId: string, page: PageRequest): Promise<Paged<StoredCoupon>>;
  get(creatorId: string, code: string): Promise<StoredCoupon | undefined>;
  /** False when the creator has a coupon with that code already. */
  create(coupon: StoredCoupon): Promise<boolean>;
  /** The changed fields, only while the coupon exists; the coupon as saved, or undefined when it is gone. */
  update(creatorId: string, code: string, changes: Partial<Pick<StoredCoupon, 'active' | 'maxRedemptions' | 'expiresAt' | 'promotionCodeId' | 'stripeCouponId'>>): Promise<StoredCoupon | undefined>;
  delete(creatorId: string, code: string): Promise<boolean>;
  /** Whether this buyer email has paid with the coupon (one redemption per buyer). */
  usedBy(creatorId: string, code: string, email: string): Promise<boolean>;
  /** This buyer email's use of the coupon: the paid order that used it (null for a use recorded before orders were named). */
  useOf(creatorId: string, code: string, email: string): Promise<{ orderId: string | null; courseId: string | null } | undefined>;
}

/** A Checkout Session on a connected account, as its events say it (`orderId` from our metadata). */
export interface ConnectCheckout {
  sessionId: string;
  orderId: string | null;
  /** Stripe's: `paid`, `unpaid` or `no_payment_required`. */
  paymentStatus: string;
  /** Pence, after the discount. */
  amountTotal: number;
  amountDiscount: number;
  email: string | null;
  paymentIntentId: string | null;
}

/** A Connect webhook event in the product's words (`account` is the connected account it happened on). */
export type ConnectEvent =
  | { id: string; type: string; created: number; account: string; kind: 'account'; state: ConnectedAccountState }
  | { id: string; type: string; created: number; account: string; kind: 'checkout'; checkout: ConnectCheckout }
  | MembershipEvent
  /** `charge.refunded` (`refunded`: nothing left to refund) and `charge.dispute.created`. */
  | { id: string; type: string; created: number; account: string; kind: 'reversal'; reversal: { paymentIntentId: string; to: 'refunded' | 'disputed'; complete: boolean } }
  | { id: string; type: string; created: number; account: string | null; kind: 'other' };

/** The Connect endpoint's webhooks, verified with its own signing secret. */
export interface ConnectEvents {
  /** Verifies the signature over the raw body first; throws BadSignatureError. */
  parseEvent(rawBody: string, signature: string | undefined): Promise<ConnectEvent>;
}

/**
 * A paid order's receipt, sent once from the order's stream record (core/sales/order-receipts.ts, decision 0054): the
 * mark that it went, or the queued email that will send it.
 */
export interface OrderReceiptMarks {
  /** Whether the order's receipt was sent or queued already. */
  done(orderId: string): Promise<boolean>;
  /** Marks it sent (false: marked already). */
  markSent(orderId: string): Promise<boolean>;
  /** Queues it in the mail queue with its mark, in one transaction (false: marked already, nothing queued). */
  queue(orderId: string, mail: QueuedMail): Promise<boolean>;
}

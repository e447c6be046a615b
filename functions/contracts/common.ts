import * as z from 'zod';

/**
 * What a creator is called where their profile is not set yet (never their email: it is private). Here, not beside
 * the storefront's schemas: the certificate job and the learner's courses name the creator and validate no storefront.
 */
export const DEFAULT_CREATOR_NAME = 'Course creator';

/** The four account kinds; each is a Cognito group. */
export const roles = ['admin', 'creator', 'leader', 'learner'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

/** Error codes of the contract (docs/api.md, "Errors"). */
export const errorCodes = [
  'VALIDATION_FAILED',
  'BAD_SIGNATURE',
  /** A coupon that does not exist, has expired or run out, was used by this buyer, or is not for this course. */
  'COUPON_INVALID',
  'UNAUTHENTICATED',
  'INSUFFICIENT_CREDITS',
  'FORBIDDEN',
  /** The caller's plan does not include the feature (`details: {requiredPlan}`; functions/contracts/entitlements.ts). */
  'PLAN_REQUIRED',
  /** A drip lesson not released to this learner yet (`details: {availableAt}`; functions/contracts/courses.ts `lessonRelease`). */
  'LESSON_LOCKED',
  /** The caller's account was turned off by an admin (checked against the stored account on every call). */
  'ACCOUNT_DISABLED',
  /** The caller has not verified their email, and the platform would send mail on their behalf. */
  'EMAIL_NOT_VERIFIED',
  'NOT_FOUND',
  'CONFLICT',
  /** A licence's seats are all taken. */
  'NO_SEATS_LEFT',
  /** The creator's payment account cannot take charges yet. */
  'PAYOUTS_NOT_READY',
  /** A live-session provider is not connected, or refuses the stored credentials (the reason in plain words). */
  'INTEGRATION_NOT_CONNECTED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'UPSTREAM_FAILED',
  /** A dependency (the database, mail, the model) failed for a moment or timed out: retry after `Retry-After` seconds. */
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** Every non-2xx answer has this body. */
export const errorBody = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const isoDate = z.iso.datetime({ offset: true });

/** Rows in a page of a paged list unless `limit` says otherwise, and the most one page holds (issue 28 point 5). */
export const PAGE_SIZE = 50;
export const PAGE_MAX = 100;
/**
 * `?cursor=&limit=` of a paged list: `cursor` is the opaque `nextCursor` of the previous page (absent: the first page);
 * a cursor this list did not hand out is 400. No list answers more than PAGE_MAX rows, whatever the data holds.
 */
export const pageQuery = z.strictObject({
  cursor: z.string().min(1).max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_SIZE),
});
/** What a repository is asked for: one page, from where `cursor` stopped. */
export interface PageRequest {
  readonly cursor?: string | undefined;
  readonly limit: number;
}
/** One page and where the next one starts (null: this was the last). */
export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * The optional Idempotency-Key header of a purchase intent or a spend: a client's retry of the same intent carries the
 * same key, so it is charged or created once. The web app sends a random UUID per intent.
 */
export const idempotencyKey = z.string().min(8).max(200).regex(/^[\w.:-]+$/, 'Use 8-200 letters, digits, "_", ".", ":" or "-".');

/** The headers of a route that accepts an Idempotency-Key (header names arrive lower-cased). */
export const idempotencyHeaders = z.object({ 'idempotency-key': idempotencyKey.optional() });
export type IdempotencyHeaders = z.infer<typeof idempotencyHeaders>;

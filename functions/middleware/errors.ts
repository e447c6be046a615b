import type { ZodError } from 'zod';
import type { ErrorBody, ErrorCode } from '#contracts/common.ts';
import { AppError, RateLimitedError } from '#core/errors.ts';
import { isTransient } from '#middleware/transient.ts';

/** One error type -> one status. The only place that decides an error's status. */
export const statusOf: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  BAD_SIGNATURE: 400,
  COUPON_INVALID: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  PLAN_REQUIRED: 403,
  LESSON_LOCKED: 403,
  ACCOUNT_DISABLED: 403,
  EMAIL_NOT_VERIFIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NO_SEATS_LEFT: 409,
  PAYOUTS_NOT_READY: 409,
  INTEGRATION_NOT_CONNECTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UPSTREAM_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** How long a caller should wait before retrying a request a dependency failed (seconds, the Retry-After header). */
export const RETRY_AFTER_SECONDS = 2;

export interface MappedError {
  status: number;
  body: ErrorBody;
  /** Unexpected: log it with its stack. Expected errors are logged as a code only. */
  unexpected: boolean;
  /** Headers the answer carries (Retry-After when a retry will help). */
  headers?: Record<string, string>;
}

/** zod issues as the contract's `details`: path and message of each. */
export const zodDetails = (error: ZodError) =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), code: issue.code, message: issue.message }));

/**
 * A ZodError that is not an AppError comes from reading a stored item or a third party's answer: it is ours, a 500.
 * Request parsing wraps its zod issues in a ValidationError (400) before they get here. A dependency failing for a
 * moment (functions/middleware/transient.ts) is a 503 with Retry-After: the request was right, a retry will do.
 */
export const mapError = (error: unknown, requestId: string): MappedError => {
  if (error instanceof AppError) {
    return {
      status: statusOf[error.code],
      body: { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } },
      unexpected: false,
      ...(error instanceof RateLimitedError ? { headers: { 'retry-after': String(error.retryAfterSeconds) } } : {}),
    };
  }
  if (isTransient(error)) {
    return {
      status: statusOf.SERVICE_UNAVAILABLE,
      body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'A service we depend on did not answer in time. Please try again in a moment.', details: { requestId } } },
      unexpected: false,
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    };
  }
  return {
    status: 500,
    body: { error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.', details: { requestId } } },
    unexpected: true,
  };
};

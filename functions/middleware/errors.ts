import type { ZodError } from 'zod';
import type { ErrorBody, ErrorCode } from '#contracts/common.ts';
import { AppError } from '#core/errors.ts';

/** One error type -> one status. The only place that decides an error's status. */
export const statusOf: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  BAD_SIGNATURE: 400,
  COUPON_INVALID: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NO_SEATS_LEFT: 409,
  PAYOUTS_NOT_READY: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UPSTREAM_FAILED: 502,
  INTERNAL: 500,
};

export interface MappedError {
  status: number;
  body: ErrorBody;
  /** Unexpected: log it with its stack. Expected errors are logged as a code only. */
  unexpected: boolean;
}

/** zod issues as the contract's `details`: path and message of each. */
export const zodDetails = (error: ZodError) =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), code: issue.code, message: issue.message }));

/**
 * A ZodError that is not an AppError comes from reading a stored item or a third party's answer: it is ours, a 500.
 * Request parsing wraps its zod issues in a ValidationError (400) before they get here.
 */
export const mapError = (error: unknown, requestId: string): MappedError => {
  if (error instanceof AppError) {
    return {
      status: statusOf[error.code],
      body: { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } },
      unexpected: false,
    };
  }
  return {
    status: 500,
    body: { error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.', details: { requestId } } },
    unexpected: true,
  };
};

import type { ErrorCode } from '#contracts/common.ts';
import { planRequiredMessage } from '#contracts/entitlements.ts';
import type { PlanType } from '#contracts/plans.ts';

/**
 * Typed errors: core throws these, the error middleware maps each code to its status once
 * (functions/middleware/errors.ts). The message is meant for people and may reach the response.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown) {
    super('VALIDATION_FAILED', message, details);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'Sign in to continue.') {
    super('UNAUTHENTICATED', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this.') {
    super('FORBIDDEN', message);
  }
}

/** The caller's plan lacks a feature (issue 29): 403 with the lowest plan that has it. */
export class PlanRequiredError extends AppError {
  constructor(requiredPlan: PlanType, message = planRequiredMessage(requiredPlan)) {
    super('PLAN_REQUIRED', message, { requiredPlan });
  }
}

/** 429 with `Retry-After`: the caller may retry after that many seconds (an API key's empty bucket). */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found.') {
    super('NOT_FOUND', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super('CONFLICT', message, details);
  }
}

export class InsufficientCreditsError extends AppError {
  constructor(message = 'You do not have enough AI credits for this.') {
    super('INSUFFICIENT_CREDITS', message);
  }
}

export class UpstreamError extends AppError {
  constructor(message: string) {
    super('UPSTREAM_FAILED', message);
  }
}

/**
 * A live-session provider is not connected or refuses the creator's credentials (issue 30): 409 with the provider's
 * reason in plain words and `details.provider`.
 */
export class IntegrationNotConnectedError extends AppError {
  constructor(
    readonly provider: 'zoom' | 'teams' | 'google',
    message: string,
  ) {
    super('INTEGRATION_NOT_CONNECTED', message, { provider });
  }
}

/**
 * A live-session provider is down, times out or answers 5xx (issue 30): 502 UPSTREAM_FAILED naming the provider.
 * Nothing the request was making is kept (the use case cleans up before throwing this on).
 */
export class ProviderUnavailableError extends UpstreamError {
  constructor(
    readonly provider: 'zoom' | 'teams' | 'google',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export class BadSignatureError extends AppError {
  constructor(message = 'The webhook signature is missing or invalid.') {
    super('BAD_SIGNATURE', message);
  }
}

export class CouponInvalidError extends AppError {
  constructor(message: string) {
    super('COUPON_INVALID', message);
  }
}

export class PayoutsNotReadyError extends AppError {
  constructor(message = "This course is not on sale yet: its creator's payment account cannot take payments.") {
    super('PAYOUTS_NOT_READY', message);
  }
}

export class NoSeatsLeftError extends AppError {
  constructor(message = 'Every seat of this licence is taken. Free a seat, or ask for more seats.') {
    super('NO_SEATS_LEFT', message);
  }
}

/**
 * The mail service answered a send with an error: nothing was sent, so sending again cannot deliver twice (unlike a
 * timeout, after which the message may have gone).
 */
export class MailRefusedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailRefusedError';
  }
}

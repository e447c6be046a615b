import type { ErrorCode } from '@contracts/common.ts';

/** Codes of the API contract, plus the two failures that happen before or after the API answers. */
export type ApiErrorCode = ErrorCode | 'NETWORK_FAILED' | 'INVALID_RESPONSE';

/**
 * Every failed API call rejects with this: the status and the contract's `{error:{code,message,details}}`.
 * Its own module (no zod) so the query client's retry rule can use it without pulling zod into the initial chunk.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * Whether an error is a dependency failing for a moment (issue 16): a timeout, a dropped or refused connection, a
 * throttle, or a server error of an AWS service, once the SDK's own retries are spent. Such a request failed without
 * being wrong: it answers 503 SERVICE_UNAVAILABLE with Retry-After (functions/middleware/errors.ts), and the caller's
 * retry with the same idempotency key is safe.
 */

const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'AbortError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'InternalServerError',
  'InternalFailure',
  'InternalErrorException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TransactionInProgressException',
]);

/** Node's and undici's socket errors: the connection could not be made or was cut. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/** A transaction cancelled by another one touching the same items, or by throttling (not by a condition). */
const TRANSIENT_CANCELLATIONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  $fault?: unknown;
  $retryable?: unknown;
  $metadata?: unknown;
  CancellationReasons?: { Code?: string }[];
  cause?: unknown;
}

export const isTransient = (error: unknown, depth = 0): boolean => {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as ErrorLike;
  if (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  // An AWS service's own answer: its SDK marks server faults and what it would retry.
  if (e.$metadata && (e.$fault === 'server' || e.$retryable)) return true;
  if (e.name === 'TransactionCanceledException') {
    const codes = (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None').filter((c) => c !== 'None');
    return codes.length > 0 && codes.every((c) => TRANSIENT_CANCELLATIONS.has(c));
  }
  return isTransient(e.cause, depth + 1);
};

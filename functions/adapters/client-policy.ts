import { NodeHttpHandler } from '@smithy/node-http-handler';

/**
 * The timeouts and retries of every network client the functions make, in one place: each adapter builds its client
 * from its entry here and from nothing else (docs/decisions/0023-timeouts-and-retries.md says why each value).
 *
 * The rule: a call's worst case (`worstCaseMs`: every attempt running to its timeout, every backoff at its longest)
 * plus ANSWER_MARGIN_MS fits under the timeout of every function that uses the client (functions/function-timeouts.ts),
 * so a function whose dependency hangs still answers with its own error body instead of being cut off by Lambda.
 * test/functions/adapters/client-policy.test.ts checks that rule against the route table, and that each client
 * really carries its policy.
 */
export interface ClientPolicy {
  /**
   * Connecting, per attempt: a socket from the pool, DNS, TCP. Absent where the client has no separate setting (the
   * request timeout then covers the connection too).
   */
  readonly connectionTimeoutMs?: number;
  /**
   * One attempt, connection included, until the answer; also the longest silence allowed while an answer streams.
   * (Stripe's `timeout` is a socket inactivity timeout: the same bound for its small JSON answers.)
   */
  readonly requestTimeoutMs: number;
  /** Attempts per call, the first one included. */
  readonly maxAttempts: number;
  /**
   * Who retries and with what backoff: the AWS SDK's standard mode (exponential with full jitter; a throttling error
   * waits longest), Stripe's own (exponential from 0.5 s, on connection errors, 409, 5xx and when Stripe says so), or
   * nobody.
   */
  readonly retry: 'aws-standard' | 'stripe' | 'none';
  /** A cap on the whole call (attempts and backoff together), passed as an AbortSignal, where the attempts alone would not fit. */
  readonly callDeadlineMs?: number;
}

export const clientPolicies = {
  /** Every function with table access. Single-digit ms in the cloud, a few hundred ms from DynamoDB Local on a loaded CI machine. */
  dynamodb: { connectionTimeoutMs: 2_000, requestTimeoutMs: 3_000, maxAttempts: 2, retry: 'aws-standard' },
  /**
   * The same table from a 'heavy' function (30 s: the jobs, the webhooks, the Stripe routes): two more attempts. Their
   * writes are transactions (the SDK's ClientRequestToken makes a retried one apply once) or conditional writes, so a
   * retry is safe, and a job's slice or a webhook's event is worth a throttling spike's wait more than a 503.
   */
  dynamodbHeavy: { connectionTimeoutMs: 2_000, requestTimeoutMs: 3_000, maxAttempts: 4, retry: 'aws-standard' },
  /** Admin calls: user creation, groups, sign-in on/off. */
  cognito: { connectionTimeoutMs: 2_000, requestTimeoutMs: 3_000, maxAttempts: 2, retry: 'aws-standard' },
  /** SendEmail (one message: invitations, receipts, certificates) and GetAccount. */
  ses: { connectionTimeoutMs: 2_000, requestTimeoutMs: 3_000, maxAttempts: 2, retry: 'aws-standard' },
  /**
   * SendBulkEmail (a campaign batch of at most 50): never retried by the SDK, since a retry after a lost answer would
   * send the batch twice; the campaign sender retries what SES refused outright itself (core/campaigns).
   */
  sesBulk: { connectionTimeoutMs: 2_000, requestTimeoutMs: 5_000, maxAttempts: 1, retry: 'aws-standard' },
  /** GenerateDataKey and Decrypt of one small key; cloud only (locally the key file serves). */
  kms: { connectionTimeoutMs: 2_000, requestTimeoutMs: 2_000, maxAttempts: 2, retry: 'aws-standard' },
  /** Control calls only (multipart start, list, complete, head, delete): file bodies go through presigned URLs. */
  s3: { connectionTimeoutMs: 2_000, requestTimeoutMs: 3_000, maxAttempts: 2, retry: 'aws-standard' },
  /**
   * SendMessageBatch of a job's slices (decision 0032): retried, since a slice sent twice carries the same
   * deduplication id and the FIFO queue keeps one. Two attempts: what fits a crud job's 10 s (a slice that cannot send
   * its continuation fails and is delivered again, so nothing waits on a third).
   */
  sqs: { connectionTimeoutMs: 2_000, requestTimeoutMs: 3_000, maxAttempts: 2, retry: 'aws-standard' },
  /** Converse: a whole landing page in one answer. The deadline leaves the function time to refund and answer 502. */
  bedrock: { connectionTimeoutMs: 3_000, requestTimeoutMs: 25_000, maxAttempts: 2, retry: 'aws-standard', callDeadlineMs: 26_000 },
  /** Stripe's API (maxNetworkRetries = maxAttempts - 1). Every POST carries an idempotency key, so its retry is safe. */
  stripe: { requestTimeoutMs: 8_000, maxAttempts: 2, retry: 'stripe' },
  /**
   * The live-session providers' APIs (issue 30; Zoom by plain fetch): 10 s per HTTP call, an API call refused with 401
   * made once more with a fresh token (a token request and the call, twice), the whole operation capped at 20 s: the
   * functions that call them are 'heavy' (30 s), which leaves time to clean up and answer 502 naming the provider.
   */
  meetings: { requestTimeoutMs: 10_000, maxAttempts: 2, retry: 'none', callDeadlineMs: 20_000 },
  /**
   * Google's token endpoint and Calendar v3 (issue 30): one attempt of 10 s, no retry by the client (gaxios would retry
   * 5xx three times); the use case retries what must be retried, creation being idempotent by the client-chosen event id.
   */
  google: { requestTimeoutMs: 10_000, maxAttempts: 1, retry: 'none' },
  /**
   * The custom domains' edge (decision 0055): one CloudFront API call by plain fetch (5 s, no retry: the job comes
   * back), or one DNS query (2 s, dns-resolver.ts). An operation makes at most three calls after its lookups (a
   * tenant's read, its certificate's, a disable and a delete): the routes that call the edge are 'heavy'.
   */
  edge: { requestTimeoutMs: 5_000, maxAttempts: 1, retry: 'none' },
  /** The Parameters and Secrets extension on localhost (its own Secrets Manager timeout is 2 s); a failed read is not cached. */
  secretsExtension: { requestTimeoutMs: 3_000, maxAttempts: 1, retry: 'none' },
} as const satisfies Record<string, ClientPolicy>;

export type Dependency = keyof typeof clientPolicies;

/** The DynamoDB policy of a function of this profile (its `FUNCTION_PROFILE`, set by lib/constructs/app-function.ts). */
export const dynamodbPolicyOf = (profile: 'crud' | 'heavy'): 'dynamodb' | 'dynamodbHeavy' => (profile === 'heavy' ? 'dynamodbHeavy' : 'dynamodb');

/** What a function needs after its slowest call gives up: log the cause, refund or release what it holds, answer. */
export const ANSWER_MARGIN_MS = 2_000;

/**
 * The retry delays the clients themselves use, as ceilings (the jitter only shortens them): the AWS SDK's standard
 * mode waits at most base x 2^(retry-1), capped at 20 s, where a throttling error has the largest base (1 s; other
 * errors 25-50 ms); Stripe waits between 0.5 s and 0.5 s x 2^(retry-2), capped at 5 s. The unit test reads both
 * from the installed SDKs, so an upgrade that changes them fails there first. Not counted: the AWS SDK also honours a
 * service's Retry-After (or x-amz-retry-after) hint for up to 5 s beyond its own wait; none of the APIs here is known
 * to send one on the errors it retries (decision 0023).
 */
export const AWS_THROTTLING_BACKOFF_BASE_MS = 1_000;
export const AWS_MAX_BACKOFF_MS = 20_000;
export const STRIPE_INITIAL_RETRY_DELAY_MS = 500;
export const STRIPE_MAX_RETRY_DELAY_MS = 5_000;

/** The longest wait before retry number `retry` (1 = the first retry). */
const backoffCeilingMs = (policy: ClientPolicy, retry: number): number => {
  switch (policy.retry) {
    case 'aws-standard':
      return Math.min(AWS_THROTTLING_BACKOFF_BASE_MS * 2 ** (retry - 1), AWS_MAX_BACKOFF_MS);
    case 'stripe':
      return Math.max(STRIPE_INITIAL_RETRY_DELAY_MS, Math.min(STRIPE_INITIAL_RETRY_DELAY_MS * 2 ** (retry - 2), STRIPE_MAX_RETRY_DELAY_MS));
    case 'none':
      return 0;
  }
};

/**
 * Attempts a call can make. Stripe retries a closed connection (ECONNRESET, EPIPE) once even with no retries
 * configured, so it makes at least two.
 */
export const attemptsOf = (policy: ClientPolicy): number => (policy.retry === 'stripe' ? Math.max(policy.maxAttempts, 2) : policy.maxAttempts);

/** The longest one call can take before it gives up: every attempt to its timeout, every backoff at its ceiling, capped by the deadline. */
export const worstCaseMs = (policy: ClientPolicy): number => {
  const attempts = attemptsOf(policy);
  let total = attempts * policy.requestTimeoutMs;
  for (let retry = 1; retry < attempts; retry++) total += backoffCeilingMs(policy, retry);
  return policy.callDeadlineMs === undefined ? total : Math.min(total, policy.callDeadlineMs);
};

/**
 * The settings of an AWS SDK v3 client. Both retry settings are explicit, so neither AWS_MAX_ATTEMPTS nor
 * AWS_RETRY_MODE (adaptive would add client-side rate-limit waits) can change them. The request handler is HTTP/1.1
 * (Bedrock's default would be HTTP/2, which neither Converse nor its local stand-in needs); `throwOnRequestTimeout`
 * makes the request timeout an error (without it smithy only logs a warning), and `socketTimeout` bounds the silence
 * once the answer's headers are in. The handler class is the one every SDK client bundles already.
 */
export const awsClientOptions = (policy: ClientPolicy) => ({
  maxAttempts: policy.maxAttempts,
  retryMode: 'standard' as const,
  requestHandler: new NodeHttpHandler({
    ...(policy.connectionTimeoutMs === undefined ? {} : { connectionTimeout: policy.connectionTimeoutMs }),
    requestTimeout: policy.requestTimeoutMs,
    throwOnRequestTimeout: true,
    socketTimeout: policy.requestTimeoutMs,
  }),
});

/** The settings of the Stripe client: its per-request (inactivity) timeout and its retries. */
export const stripeClientOptions = (policy: ClientPolicy) => ({
  timeout: policy.requestTimeoutMs,
  maxNetworkRetries: policy.maxAttempts - 1,
});

/** The signal that ends a `fetch` at its policy's timeout (the only retry is the caller's next call). */
export const fetchTimeout = (policy: ClientPolicy): AbortSignal => AbortSignal.timeout(policy.requestTimeoutMs);

/** The signal that ends a whole SDK call, retries included, at its policy's deadline (where it has one). */
export const callDeadline = (policy: ClientPolicy): { abortSignal?: AbortSignal } =>
  policy.callDeadlineMs === undefined ? {} : { abortSignal: AbortSignal.timeout(policy.callDeadlineMs) };

/**
 * How asynchronous work is retried before it becomes a dead letter, and where it lands (docs/decisions/0025-dead-letters.md).
 * The CDK deploys these values (lib/constructs/dead-letter-queue.ts, the jobs and api stacks) and the local cloud
 * emulates them (lib/local/dead-letters/): the same number of retries, with waits of seconds instead of minutes.
 * Plain numbers, no aws-cdk-lib: the local cloud reads this module too.
 */

/**
 * One dead-letter queue per kind of asynchronous work, by name: the cloud's queue is `<stack>-<name>-dead-letters`
 * (its alarm has the same name), the local store's file `<data dir>/dead-letters/<name>.jsonl`.
 */
export const deadLetterQueues = {
  /** Everything the jobs stack runs: the scheduled runs of every job, and the campaign sender the API starts at once. */
  jobs: 'jobs',
  /** SES bounce and complaint notifications that the ses-feedback function could not apply, or SNS could not deliver. */
  sesFeedback: 'ses-feedback',
  /**
   * The slices of the sliced jobs (decision 0032) that failed on each of their receives: one FIFO queue in the cloud
   * (lib/constructs/job-queue-names.ts), SQS moves a slice there after its last receive.
   */
  jobSlices: 'job-slices',
  /**
   * The table stream's batches the stream aggregator still failed after its retries (the batch's shard and sequence
   * range, from Lambda's on-failure destination; decision 0040): re-applying them is exact (the checkpoint).
   */
  streams: 'streams',
} as const;
export type DeadLetterQueueName = (typeof deadLetterQueues)[keyof typeof deadLetterQueues];

/** How long a dead letter waits to be read and re-driven: SQS's maximum, two weekends and a week of holiday. */
export const deadLetterRetentionDays = 14;

/** Retries after the first failed attempt, and the age after which an event is given up on (seconds). */
export interface AsyncRetryPolicy {
  readonly retryAttempts: number;
  readonly maxEventAgeSeconds: number;
}

export const asyncRetries = {
  /**
   * EventBridge Scheduler's calls of Lambda's Invoke API (it invokes asynchronously, so this covers the hand-off only:
   * throttling, a missing function or permission). Two retries with its backoff, within the hour; then the jobs queue.
   */
  schedule: { retryAttempts: 2, maxEventAgeSeconds: 3600 },
  /**
   * Lambda's retries of a job run that failed (threw, timed out), however it was started: about 1 and 3 minutes after
   * the failure. An event still waiting after an hour (Lambda's queue backed up) is given up too: the next scheduled run
   * does its work. Jobs read their work from the table, so a retry or a re-drive repeats nothing.
   */
  jobs: { retryAttempts: 2, maxEventAgeSeconds: 3600 },
  /**
   * Lambda's retries of a failed ses-feedback invocation; 6 hours (Lambda's maximum): a late suppression still keeps the
   * next campaign off a bouncing address. Applying feedback twice suppresses nobody twice.
   */
  sesFeedback: { retryAttempts: 2, maxEventAgeSeconds: 6 * 3600 },
} as const satisfies Record<string, AsyncRetryPolicy>;

/**
 * The local cloud's waits before each retry (Lambda waits about 1 and 2 minutes): the same retries, seconds apart, so a
 * failure lands in the local store within seconds. Tests pass their own.
 */
export const localRetryDelaysMs: readonly number[] = [1_000, 2_000];

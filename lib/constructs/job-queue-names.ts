/**
 * The job engine's queues by name (docs/decisions/0032-jobs-in-slices.md): the jobs stack deploys them
 * (lib/constructs/job-queue.ts), an API function that starts a run builds its queue's URL and ARN from the name (as it
 * names a job's function, without depending on the jobs stack), and the local cloud creates the same in its SQS
 * stand-in. Plain values, no aws-cdk-lib: the local cloud reads this module too.
 */
import { REPORT_LANES_AT_ONCE } from '#core/licenses/report-lanes.ts';

/** A sliced job's own FIFO queue: fixed, so a function in another stack can be given it. */
export const jobQueueName = (job: string): string => `CoursePlatformJobs-${job}.fifo`;

/** The FIFO dead-letter queue of every sliced job's queue (FIFO queues need a FIFO one). */
export const jobSlicesDeadLetterQueueName = (stackName: string): string => `${stackName}-job-slices-dead-letters.fifo`;

/** Receives of one slice before it goes to the dead-letter queue: the first delivery and two retries, as Lambda's async ones. */
export const JOB_QUEUE_MAX_RECEIVE_COUNT = 3;

/**
 * A job queue's visibility timeout, in multiples of its function's timeout: AWS's advice for an SQS event source (at
 * least six times the timeout), so a slice is not delivered again while its function may still be running it, or being
 * retried after a throttle.
 */
export const JOB_QUEUE_VISIBILITY_FACTOR = 6;

/**
 * The most invocations of a sliced job's function its queue's event source runs at once (SqsEventSource
 * `maxConcurrency`, which Lambda allows from 2 to 1000): a run that fans out into many lanes (a page of leaders, a big
 * licence, each a message group) takes at most this many of the account's executions, never the whole pool the API
 * and the webhooks share. A job of one lane per run needs the minimum (2: a run and the next one overlapping). The
 * local event source runs at most this many slices of a queue at once too.
 */
export const jobQueueMaxConcurrency = {
  /**
   * A lane per page of 100 leaders, each sending its emails at its share of the platform's part of SES's rate: the
   * same number as the lanes' pace divides by (core/licenses/report-lanes.ts), so together they ask for that part.
   */
  'leader-weekly-report': REPORT_LANES_AT_ONCE,
  /** A lane per licence too big for one slice: 5 of them ending side by side. */
  'license-expiry': 5,
  /** A run per course renamed or deleted: 5 courses' changes carried at once. */
  'course-changed': 5,
  /** Campaigns side by side, each sending at its share of the SES rate. */
  'campaign-sender': 5,
} as const satisfies Record<string, number>;

/** Lambda's lowest `maxConcurrency` for an SQS event source: the jobs of one lane per run. */
export const JOB_QUEUE_MIN_CONCURRENCY = 2;

/** A sliced job's queue's maximum concurrency: its entry above, or the minimum. */
export const maxConcurrencyOf = (job: string): number =>
  (jobQueueMaxConcurrency as Readonly<Record<string, number>>)[job] ?? JOB_QUEUE_MIN_CONCURRENCY;

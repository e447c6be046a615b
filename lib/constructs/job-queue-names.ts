/**
 * The job engine's queues by name (docs/decisions/0032-jobs-in-slices.md): the jobs stack deploys them
 * (lib/constructs/job-queue.ts), an API function that starts a run builds its queue's URL and ARN from the name (as it
 * names a job's function, without depending on the jobs stack), and the local cloud creates the same in its SQS
 * stand-in. Plain values, no aws-cdk-lib: the local cloud reads this module too.
 */

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

import { functionTimeoutMs } from '#functions/function-timeouts.ts';
import { jobs } from '#functions/routes.ts';
import { jobQueueName, maxConcurrencyOf } from '../../constructs/job-queue-names.ts';

/** A sliced job as the event source runs it. */
export interface QueuedJob {
  readonly name: string;
  /** Its module under functions/ (exports `handler`). */
  readonly handler: string;
  /** Its function's timeout (functions/function-timeouts.ts): the context's getRemainingTimeInMillis counts it down. */
  readonly timeoutMs: number;
  /** The most slices of its queue run at once (the cloud's event source `maxConcurrency`); none: no limit. */
  readonly maxConcurrency?: number;
}

/** The jobs of functions/routes.ts with `queue: true`, each with its function's timeout and its queue's concurrency. */
export const queuedJobs = (): QueuedJob[] =>
  (jobs as readonly { name: string; handler: string; queue?: boolean; profile?: keyof typeof functionTimeoutMs }[])
    .filter((job) => job.queue === true)
    .map((job) => ({ name: job.name, handler: job.handler, timeoutMs: functionTimeoutMs[job.profile ?? 'crud'], maxConcurrency: maxConcurrencyOf(job.name) }));

/** The URLs the stand-in at `endpoint` gives the sliced jobs' queues: the functions' JOB_QUEUE_URLS. */
export const localJobQueueUrls = (endpoint: string, names: readonly string[] = queuedJobs().map((job) => job.name)): Record<string, string> =>
  Object.fromEntries(names.map((name) => [name, `${endpoint.replace(/\/+$/, '')}/000000000000/${jobQueueName(name)}`]));

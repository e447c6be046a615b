import { randomUUID } from 'node:crypto';
import { jobs as allJobs } from '#functions/routes.ts';
import { deadLetterQueues } from '../../constructs/async-retries.ts';
import type { AsyncInvoker } from '../dead-letters/async-invoker.ts';
import { type Handler, lambdaContext, loadHandler } from '../handlers.ts';

interface Job {
  readonly name: string;
  readonly handler: string;
  /** None: a job only ever started by others (a sliced job whose runs a route starts, decision 0032). */
  readonly schedule?: string;
}

const units: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Milliseconds between runs of an EventBridge `rate(...)` expression; undefined for cron(...) and at(...). */
export const rateMs = (expression: string): number | undefined => {
  const match = /^rate\((\d+)\s+(minute|hour|day)s?\)$/.exec(expression.trim());
  return match ? Number(match[1]) * units[match[2]!]! : undefined;
};

/**
 * What EventBridge Scheduler hands the function (the schedule's target input): the same shape as
 * events/scheduler-credit-reset.json.
 */
export const schedulerEvent = (job: Pick<Job, 'name'>, now: Date, region = 'eu-west-2') => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.scheduler',
  account: '000000000000',
  time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region,
  resources: [`arn:aws:scheduler:${region}:000000000000:schedule/default/${job.name}`],
  detail: {},
});

/** How long a scheduled run may take locally (the trigger bridge gives the runs it starts the same). */
const RUN_TIMEOUT_MS = 60_000;

/**
 * EventBridge Scheduler emulation: every job in functions/routes.ts runs once at start, then on its rate, invoked as
 * Lambda invokes it in the cloud (asynchronously, through `invoker`): a failing run is retried, then its event is a
 * dead letter in the `jobs` queue (docs/faults.md, "Dead letters and re-drive"); it never stops the cloud.
 */
export const startScheduler = (opts: {
  log: (line: string) => void;
  /** Retries and dead letters (lib/local/dead-letters/async-invoker.ts). */
  invoker: AsyncInvoker;
  region?: string;
  jobs?: readonly Job[];
  /** How a job's handler module is loaded (tests hand their own). */
  load?: (module: string) => Promise<Handler>;
}) => {
  const load = opts.load ?? loadHandler;
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  const run = (job: Job) => {
    const event = schedulerEvent(job, new Date(), opts.region);
    const done = opts.invoker
      .run({
        queue: deadLetterQueues.jobs,
        functionName: job.name,
        source: 'schedule',
        event,
        label: `[scheduler] ${job.name}`,
        attempt: async () => (await load(job.handler))(event, lambdaContext(job.name, RUN_TIMEOUT_MS)),
      })
      .then((outcome) => {
        if (outcome.ok) opts.log(`[scheduler] ${job.name} ran`);
      });
    running.add(done);
    void done.finally(() => running.delete(done));
  };
  for (const job of (opts.jobs ?? allJobs) as readonly Job[]) {
    if (job.schedule === undefined) continue;
    run(job);
    const every = rateMs(job.schedule);
    if (every === undefined) {
      opts.log(`[scheduler] ${job.name}: only rate(...) schedules repeat locally; "${job.schedule}" ran once at start`);
      continue;
    }
    const timer = setInterval(() => run(job), every);
    timer.unref();
    timers.push(timer);
  }
  return {
    /** Stops the timers and waits for runs in flight (they may be writing to DynamoDB), with their retries. */
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all(running);
    },
  };
};

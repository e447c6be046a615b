import { randomUUID } from 'node:crypto';
import { jobs as allJobs } from '#functions/routes.ts';
import { lambdaContext, loadHandler } from '../handlers.ts';

interface Job {
  readonly name: string;
  readonly handler: string;
  readonly schedule: string;
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

/**
 * EventBridge Scheduler emulation: every job in functions/routes.ts runs once at start, then on its
 * rate. A failing job is logged and retried at its next tick; it never stops the cloud.
 */
export const startScheduler = (opts: { log: (line: string) => void; region?: string; jobs?: readonly Job[] }) => {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  const run = (job: Job) => {
    const done = loadHandler(job.handler)
      .then((handler) => handler(schedulerEvent(job, new Date(), opts.region), lambdaContext(job.name, 60_000)))
      .then(
        () => opts.log(`[scheduler] ${job.name} ran`),
        (error: unknown) => opts.log(`[scheduler] ${job.name} failed: ${(error as Error)?.message ?? String(error)}`),
      );
    running.add(done);
    void done.finally(() => running.delete(done));
  };
  for (const job of opts.jobs ?? allJobs) {
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
    /** Stops the timers and waits for runs in flight (they may be writing to DynamoDB). */
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all(running);
    },
  };
};

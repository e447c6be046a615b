import type { SliceWork } from '#core/jobs/slices.ts';
import { sweepDueDeliveries, type SweepCounts } from '#core/webhooks/deliver.ts';
import type { WebhookDeliveryDeps } from '#core/webhooks/ports.ts';
import { webhookDeliveryDeps } from '#functions/composition/deps-webhooks.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): the webhook deliveries due by now
 * (their index, core/webhooks/deliver.ts), each claimed before its attempt, so two runs never send one at once; a run
 * waits for those due within seconds (a first retry) while it has the time.
 */
const log = scopedLog({ job: 'webhook-deliveries' });

/** The job's work; tests replace some of its dependencies (the clock). */
export const work =
  (remainingMs: () => number, replaced: Partial<WebhookDeliveryDeps> & { sleep?: (ms: number) => Promise<void> } = {}): SliceWork<SweepCounts> =>
  async (_slice, timeUp) => {
    // A test's own clock does not move while a real pause passes: it waits only with a sleep of its own.
    const { sleep = replaced.clock ? undefined : (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)), ...deps } = replaced;
    const counts = await sweepDueDeliveries({ ...webhookDeliveryDeps(), ...deps }, timeUp, (message, fields) => log.warn(message, fields), sleep && { remainingMs, sleep });
    return { cursor: undefined, counts };
  };

export const handler = slicedJob('webhook-deliveries', (remainingMs) => work(remainingMs));

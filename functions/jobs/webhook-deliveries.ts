import type { SliceWork } from '#core/jobs/slices.ts';
import { sweepDueDeliveries, type SweepCounts } from '#core/webhooks/deliver.ts';
import type { WebhookDeliveryDeps } from '#core/webhooks/ports.ts';
import { webhookDeliveryDeps } from '#functions/composition/deps-webhooks.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): the webhook deliveries due by now
 * (their index, core/webhooks/deliver.ts), each claimed before its attempt, so two runs never send one at once.
 */
const log = scopedLog({ job: 'webhook-deliveries' });

/** The job's work; tests replace some of its dependencies (the clock). */
export const work =
  (_remainingMs: () => number, replaced: Partial<WebhookDeliveryDeps> = {}): SliceWork<SweepCounts> =>
  async (_slice, timeUp) => ({ cursor: undefined, counts: await sweepDueDeliveries({ ...webhookDeliveryDeps(), ...replaced }, timeUp, (message, fields) => log.warn(message, fields)) });

export const handler = slicedJob('webhook-deliveries', (remainingMs) => work(remainingMs));

import { sendPlatformMail } from '#core/mail/mail-sender.ts';
import { senderDeps } from '#functions/composition/deps-campaigns.ts';
import { mailQueueSenderDeps } from '#functions/composition/deps-mail-queue.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

const log = scopedLog({ job: 'mail-sender' });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): the queued emails (receipts and the
 * like whose first send failed) and the automations' outbox (a new creator's welcome), each drained until empty at
 * the platform's share of SES's rate; each queued email held by one sender, sent, removed (decision 0026). `over.sleep`:
 * the pacing's wait (tests at size replace it; the pacing itself is unit-tested).
 */
export const work = (remainingMs: () => number, over: { sleep?: (ms: number) => Promise<void> } = {}) => {
  const automations = senderDeps(remainingMs);
  return sendPlatformMail({
    // The queue's emails and its work (a paid order's new buyer's account and invitation: core/sales/buyer-account.ts).
    ...mailQueueSenderDeps(
      (message, fields) => log.warn(message, fields),
      (message, fields) => log.error(message, fields),
    ),
    automations,
    sendRate: () => automations.mailer.maxSendRate(),
    sleep: over.sleep ?? sleep,
  });
};

export const handler = slicedJob('mail-sender', work);

import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { firstSlice } from '#core/jobs/slices.ts';
import type { ReceiptBatchDeps } from '#core/sales/order-receipts.ts';
import { sesMaxSendRate } from '#adapters/ses-mailer.ts';
import { dynamoOrderReceipts } from '#data/order-receipts.ts';
import { appOrigin, clock, ids, mailer, mailSchool } from '#functions/composition/deps.ts';
import { logger } from '#middleware/logger.ts';
import type { StreamCounters } from '#core/streams/ports.ts';
import { dynamoStreamCounters } from '#data/stream-counters.ts';

/** The composition of the stream aggregator (functions/streams/aggregator.ts). */
let counters: StreamCounters | undefined;

export const streamCounters = (): StreamCounters => (counters ??= dynamoStreamCounters());

/**
 * The stream reactions' receipts (functions/streams/reactions/order-receipts.ts): SES and its rate (a batch's receipts
 * are paced at the platform's share of it), the marks, the mail queue.
 */
export const orderReceiptDeps = (): ReceiptBatchDeps & { startSender: (key: string) => Promise<void> } => ({
  receipts: dynamoOrderReceipts(),
  mailer: mailer(),
  ids,
  clock,
  appOrigin: appOrigin(),
  mailSchool,
  log: (message, fields) => logger.warn(message, fields),
  sendRate: sesMaxSendRate,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  startSender: (key) => sqsSliceQueue().send([firstSlice('mail-sender', `mail-sender@${key}`)]).then(() => undefined),
});

import type { DynamoDBRecord } from 'aws-lambda';
import { type PaidCourseOrder, type ReceiptBatchDeps, type ReceiptOutcome, receiptOwed, sendOrderReceipt, sendOrderReceipts } from '#core/sales/order-receipts.ts';
import { orderReceiptDeps } from '#functions/composition/deps-streams.ts';
import { describeError } from '#middleware/logger.ts';
import { newImage, oldImage, perBatch, type Reaction } from '#functions/streams/reactions/reaction.ts';

const owedBy = (record: DynamoDBRecord): PaidCourseOrder | undefined => receiptOwed(oldImage(record), newImage(record));

/**
 * The receipts' dependencies for one batch: a creator's school (issue 32) read once per batch, however many of their
 * buyers paid in it (a flash sale's batch of 100 orders of one course reads it once, not 100 times).
 */
export const batchReceiptDeps = <D extends ReceiptBatchDeps>(deps: D): D => ({ ...deps, mailSchool: perBatch(deps.mailSchool) });

/**
 * A course order's purchase receipt, from the order's pending -> paid record (decision 0054): sent once (its mark), or
 * queued for the mail sender when SES refuses it (or the batch's pace has no room for it), whose run is then started
 * once per batch. The batch's receipts are started together ahead of its records (core/sales/order-receipts.ts
 * sendOrderReceipts: a few at a time, at the platform's share of SES's rate); each record waits for its own.
 */
export const orderReceipts: Reaction<{
  deps: ReceiptBatchDeps & { startSender: (key: string) => Promise<void> };
  sending: Map<string, Promise<ReceiptOutcome>>;
}> = {
  name: 'order-receipts',
  startBatch: () => ({ deps: batchReceiptDeps(orderReceiptDeps()), sending: new Map() }),
  ahead(batch, records) {
    const owed = records.map(owedBy).filter((order) => order !== undefined);
    if (owed.length > 0) batch.sending = sendOrderReceipts(batch.deps, owed);
  },
  async onRecord(batch, record, log) {
    const order = owedBy(record);
    if (!order) return;
    try {
      // Started ahead with the batch's others; a record the batch did not see ahead (none) is sent on its own.
      await (batch.sending.get(order.id) ?? sendOrderReceipt(batch.deps, order));
    } catch (error) {
      log.error('receipt not sent: retried from this record', { orderId: order.id, error: describeError(error) });
      throw error;
    }
  },
  async endBatch(batch, log) {
    // Every receipt started ahead has ended (a record that failed stops the batch, not the receipts after it): the mail
    // sender is started for those queued, whether or not their records were reached.
    const ids = [...batch.sending.keys()];
    const outcomes = await Promise.allSettled(batch.sending.values());
    const queuedIds = ids.filter((_, i) => {
      const outcome = outcomes[i]!;
      return outcome.status === 'fulfilled' && outcome.value === 'queued';
    });
    const queued = queuedIds.length;
    if (queued === 0) return;
    await batch.deps.startSender(`receipts:${queuedIds[0]}`);
    log.info('receipts queued for the mail sender', { queued });
  },
};

import { type OrderReceiptDeps, receiptOwed, sendOrderReceipt } from '#core/sales/order-receipts.ts';
import { orderReceiptDeps } from '#functions/composition/deps-streams.ts';
import { describeError } from '#middleware/logger.ts';
import { newImage, oldImage, type Reaction } from '#functions/streams/reactions/reaction.ts';

/**
 * A course order's purchase receipt, from the order's pending -> paid record (decision 0054): sent once (its mark), or
 * queued for the mail sender when SES refuses it, whose run is then started once per batch.
 */
export const orderReceipts: Reaction<{ deps: OrderReceiptDeps & { startSender: (key: string) => Promise<void> }; queued: number; key: string | undefined }> = {
  name: 'order-receipts',
  startBatch: () => ({ deps: orderReceiptDeps(), queued: 0, key: undefined }),
  async onRecord(batch, record, log) {
    const order = receiptOwed(oldImage(record), newImage(record));
    if (!order) return;
    try {
      if ((await sendOrderReceipt(batch.deps, order)) === 'queued') {
        batch.queued += 1;
        batch.key ??= order.id;
      }
    } catch (error) {
      log.error('receipt not sent: retried from this record', { orderId: order.id, error: describeError(error) });
      throw error;
    }
  },
  async endBatch(batch, log) {
    if (batch.queued === 0) return;
    await batch.deps.startSender(`receipts:${batch.key ?? 'batch'}`);
    log.info('receipts queued for the mail sender', { queued: batch.queued });
  },
};

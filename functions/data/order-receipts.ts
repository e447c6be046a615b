import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { OrderReceiptMarks } from '#core/sales/ports.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { documentClient, tableName, transact, writeIf } from '#data/table.ts';

/**
 * A paid order's receipt, sent once by the stream's reactions (functions/streams/reactions/order-receipts.ts,
 * docs/decisions/0054-receipts-from-the-stream.md).
 * Receipt mark:  pk ORDER#<orderId>  sk RECEIPT  how ('sent' | 'queued'), at, expiresAt (TTL: 7 days, far past the
 *                stream's 24 hours of records that could bring the order's payment back)
 *                Written after the send (a conditional Put: 1 write unit), or with the queued email when the send failed
 *                (one transaction); a record seen again finds it and sends nothing.
 */
export const receiptKey = (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'RECEIPT' });

const MARK_TTL_SECONDS = 7 * 24 * 60 * 60;

const markItem = (orderId: string, how: 'sent' | 'queued') => {
  const nowMs = Date.now();
  return { ...receiptKey(orderId), type: 'OrderReceipt', how, at: new Date(nowMs).toISOString(), expiresAt: Math.floor(nowMs / 1000) + MARK_TTL_SECONDS };
};

export const dynamoOrderReceipts = (): OrderReceiptMarks => ({
  async done(orderId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: receiptKey(orderId), ConsistentRead: true, ProjectionExpression: 'pk' }));
    return Item !== undefined;
  },

  markSent: (orderId) =>
    writeIf(() => documentClient().send(new PutCommand({ TableName: tableName(), Item: markItem(orderId, 'sent'), ConditionExpression: 'attribute_not_exists(pk)' }))),

  async queue(orderId, mail) {
    const cancelled = await transact([
      { Put: { TableName: tableName(), Item: markItem(orderId, 'queued'), ConditionExpression: 'attribute_not_exists(pk)' } },
      mailQueuePut(mail),
    ]);
    return !cancelled;
  },
});

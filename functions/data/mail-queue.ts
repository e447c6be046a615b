import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { MailQueue, QueuedAccount, QueuedItem, QueuedMail } from '#core/ports.ts';
import { documentClient, partitionQueue, tableName, transact } from '#data/table.ts';

/**
 * The mail queue: an email nobody waits for, written in the transaction of what it announces (`mailQueuePut`) and
 * kept until it is sent; due from `dueAt` (later while a sender holds it: core/mail/mail-queue.ts).
 * Queued mail:     pk MAILQUEUE  sk <dueAt>#<id>  id, to, subject, text, html, queuedAt, dueAt, tries
 * Queued account:  pk MAILQUEUE  sk <dueAt>#<id>  kind 'buyer-account', id (account:<orderId>), orderId, email, queuedAt, dueAt, tries
 *                  (a paid order's new buyer: the account made and invited by the sender job, core/sales/buyer-account.ts)
 */
export const mailQueueKey = (mail: Pick<QueuedItem, 'dueAt' | 'id'>) => ({ pk: 'MAILQUEUE', sk: `${mail.dueAt}#${mail.id}` });

// An email queued before `dueAt` existed (its sort key was its queuedAt) is due from when it was queued.
const queuedMail = z
  .object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), html: z.string(), queuedAt: isoDate, dueAt: isoDate.optional(), tries: z.number().int() })
  .transform((mail): QueuedMail => ({ ...mail, dueAt: mail.dueAt ?? mail.queuedAt }));

const queuedAccount = z.object({
  kind: z.literal('buyer-account'),
  id: z.string(),
  orderId: z.string(),
  email: z.string(),
  queuedAt: isoDate,
  dueAt: isoDate,
  tries: z.number().int(),
}) satisfies z.ZodType<QueuedAccount>;

const queuedItem = (item: Record<string, unknown>): QueuedItem => (item['kind'] === 'buyer-account' ? queuedAccount.parse(item) : queuedMail.parse(item));

const partition = partitionQueue('MAILQUEUE', queuedItem);

/** The item that queues `mail` (or work), for the transaction of what it announces (a paid order, a certificate, an affiliate). */
export const mailQueuePut = (mail: QueuedItem) => ({
  Put: { TableName: tableName(), Item: { ...mailQueueKey(mail), type: 'kind' in mail ? 'QueuedAccount' : 'QueuedMail', ...queuedItem(mail as unknown as Record<string, unknown>) } },
});

export const dynamoMailQueue = (): MailQueue => ({
  due: (now, limit) => partition.oldest(limit, now),

  async move(from, to) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: mailQueueKey(from), ConditionExpression: 'attribute_exists(pk)' } },
      mailQueuePut(to),
    ]);
    return !cancelled;
  },

  async remove(mail) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: mailQueueKey(mail) }));
  },
});

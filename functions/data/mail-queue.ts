import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { MailQueue, QueuedMail } from '#core/ports.ts';
import { documentClient, partitionQueue, tableName, transact } from '#data/table.ts';

/**
 * The mail queue: an email nobody waits for, written in the transaction of what it announces (`mailQueuePut`) and
 * kept until it is sent; due from `dueAt` (later while a sender holds it: core/mail/mail-queue.ts).
 * Queued mail:  pk MAILQUEUE  sk <dueAt>#<id>  id, to, subject, text, html, queuedAt, dueAt, tries
 */
export const mailQueueKey = (mail: Pick<QueuedMail, 'dueAt' | 'id'>) => ({ pk: 'MAILQUEUE', sk: `${mail.dueAt}#${mail.id}` });

// An email queued before `dueAt` existed (its sort key was its queuedAt) is due from when it was queued.
const queuedMail = z
  .object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), html: z.string(), queuedAt: isoDate, dueAt: isoDate.optional(), tries: z.number().int() })
  .transform((mail): QueuedMail => ({ ...mail, dueAt: mail.dueAt ?? mail.queuedAt }));

const partition = partitionQueue('MAILQUEUE', (item) => queuedMail.parse(item));

/** The item that queues `mail`, for the transaction of what it announces (a paid order, a certificate, an affiliate). */
export const mailQueuePut = (mail: QueuedMail) => ({ Put: { TableName: tableName(), Item: { ...mailQueueKey(mail), type: 'QueuedMail', ...queuedMail.parse(mail) } } });

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

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { MailQueue, QueuedMail } from '#core/ports.ts';
import { documentClient, partitionQueue, tableName } from '#data/table.ts';

/**
 * The mail queue: an email nobody waits for whose send failed, kept until the sender job sends it.
 * Queued mail:  pk MAILQUEUE  sk <queuedAt>#<id>  to, subject, text, html, queuedAt, tries
 */
export const mailQueueKey = (mail: Pick<QueuedMail, 'queuedAt' | 'id'>) => ({ pk: 'MAILQUEUE', sk: `${mail.queuedAt}#${mail.id}` });

const queuedMail = z.object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), html: z.string(), queuedAt: isoDate, tries: z.number().int() });

const partition = partitionQueue('MAILQUEUE', (item) => queuedMail.parse(item));

export const dynamoMailQueue = (): MailQueue => ({
  async queue(mail) {
    // The same mail queued again (a retry) replaces itself: one item per id.
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...mailQueueKey(mail), type: 'QueuedMail', ...queuedMail.parse(mail) } }));
  },

  waiting: partition.oldest,

  take: (mail) => partition.take(mailQueueKey(mail)),
});

import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { MailQueue, QueuedMail } from '#core/ports.ts';
import { documentClient, tableName, writeIf } from '#data/table.ts';

/**
 * The mail queue: an email nobody waits for whose send failed, kept until the sender job sends it.
 * Queued mail:  pk MAILQUEUE  sk <queuedAt>#<id>  to, subject, text, html, queuedAt, tries
 */
export const mailQueueKey = (mail: Pick<QueuedMail, 'queuedAt' | 'id'>) => ({ pk: 'MAILQUEUE', sk: `${mail.queuedAt}#${mail.id}` });

const queuedMail = z.object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), html: z.string(), queuedAt: isoDate, tries: z.number().int() });

export const dynamoMailQueue = (): MailQueue => ({
  async queue(mail) {
    // The same mail queued again (a retry) replaces itself: one item per id.
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...mailQueueKey(mail), type: 'QueuedMail', ...queuedMail.parse(mail) } }));
  },

  async waiting(limit) {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'MAILQUEUE' }, Limit: limit, ConsistentRead: true }),
    );
    return Items.map((item) => queuedMail.parse(item));
  },

  take: (mail) => writeIf(() => documentClient().send(new DeleteCommand({ TableName: tableName(), Key: mailQueueKey(mail), ConditionExpression: 'attribute_exists(pk)' }))),
});

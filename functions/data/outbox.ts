import * as z from 'zod';
import { automationId } from '#contracts/campaigns.ts';
import { isoDate } from '#contracts/common.ts';
import type { OutboxEmail } from '#core/ports.ts';
import { batchWrite, partitionQueue, tableName } from '#data/table.ts';

/**
 * The automations' outbox: an email the platform owes someone (the welcome on a self sign-up) is put in the same
 * transaction as what caused it, so it is queued exactly when that happened, and sent later by the mail sender job,
 * which takes each item off with a conditional delete before sending it, and puts it back if SES refused the send.
 * Outbox email:  pk OUTBOX  sk <at>#<automation>#<userId>  automation, userId, email, at
 */
export const outboxKey = (message: Pick<OutboxEmail, 'at' | 'automation' | 'userId'>) => ({ pk: 'OUTBOX', sk: `${message.at}#${message.automation}#${message.userId}` });

const outboxItem = z.object({ automation: automationId, userId: z.string(), email: z.string(), at: isoDate });

/** The transaction item that queues `message` (a repeat of the same one is refused with its transaction). */
export const outboxPut = (message: OutboxEmail) => ({
  Put: {
    TableName: tableName(),
    Item: { ...outboxKey(message), type: 'OutboxEmail', ...message },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

const outbox = partitionQueue('OUTBOX', (item) => outboxItem.parse(item));

/** The oldest waiting emails. */
export const readOutbox = outbox.oldest;

/** Takes one email off the outbox: true for the one caller whose delete found it. */
export const claimOutbox = (message: OutboxEmail): Promise<boolean> => outbox.take(outboxKey(message));

/** Puts taken emails back as they were. */
export const returnToOutbox = (messages: readonly OutboxEmail[]): Promise<void> =>
  batchWrite(messages.map((message) => ({ PutRequest: { Item: { ...outboxKey(message), type: 'OutboxEmail', ...message } } })));

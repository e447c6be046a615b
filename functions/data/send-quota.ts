import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SendQuota } from '#core/mail/ports.ts';
import { documentClient, tableName, writeIf } from '#data/table.ts';

/**
 * send quota (a trial creator's daily invitations and recommendations, core/mail/on-behalf.ts).
 * Day:  pk USER#<id>  sk SENDS#<YYYY-MM-DD>  sent (count), expiresAt (the table's TTL: two days after that day)
 * One conditional UpdateItem per send: the count goes up only while it is below the cap, so concurrent sends never
 * pass it.
 */
export const sendQuotaKeys = {
  day: (userId: string, day: string) => ({ pk: `USER#${userId}`, sk: `SENDS#${day}` }),
};

const TWO_DAYS_SECONDS = 2 * 86_400;

export const dynamoSendQuota = (): SendQuota => ({
  take: (userId, day, cap) =>
    writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: sendQuotaKeys.day(userId, day),
          UpdateExpression: 'SET sent = if_not_exists(sent, :zero) + :one, #type = :type, expiresAt = :expires',
          ConditionExpression: 'attribute_not_exists(sent) OR sent < :cap',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':cap': cap,
            ':type': 'SendQuota',
            ':expires': Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + TWO_DAYS_SECONDS,
          },
        }),
      ),
    ),
});

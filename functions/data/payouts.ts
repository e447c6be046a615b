import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { PayoutRepository } from '#core/sales/ports.ts';
import { eventPut } from '#data/billing.ts';
import { documentClient, failedAt, tableName, transact } from '#data/table.ts';

/**
 * creators' payment accounts (Stripe Connect, docs/data-model.md "Payment accounts").
 * Payout account:   pk USER#<id>            sk PAYOUTS   accountId, chargesEnabled, payoutsEnabled, detailsSubmitted,
 *                                                        requirements, lastEventAt (the provider's time of that state)
 * Account -> owner: pk CONNECTACCT#<acct>   sk ACCOUNT   userId (a Connect event names the account, not the creator)
 */
export const payoutKeys = {
  account: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PAYOUTS' }),
  owner: (accountId: string) => ({ pk: `CONNECTACCT#${accountId}`, sk: 'ACCOUNT' }),
};

const payoutItem = z.object({
  userId: z.string(),
  accountId: z.string(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  detailsSubmitted: z.boolean(),
  requirements: z.array(z.string()),
  lastEventAt: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const get = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

export const dynamoPayouts = (): PayoutRepository => ({
  async get(userId) {
    const item = await get(payoutKeys.account(userId));
    return item ? payoutItem.parse(item) : undefined;
  },

  async create(account) {
    const cancelled = await transact([
      { Put: { TableName: tableName(), Item: { ...payoutKeys.account(account.userId), type: 'PayoutAccount', ...account }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName(), Item: { ...payoutKeys.owner(account.accountId), type: 'PayoutAccountOwner', userId: account.userId }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);
    if (!cancelled) return account;
    const stored = await this.get(account.userId);
    if (!stored) throw new Error(`payment account ${account.accountId} is already held by another creator`);
    return stored;
  },

  async ownerOf(accountId) {
    const item = await get(payoutKeys.owner(accountId));
    return typeof item?.['userId'] === 'string' ? item['userId'] : undefined;
  },

  async applyAccountEvent({ event, accountId, eventAt, state, updatedAt }) {
    const userId = await this.ownerOf(accountId);
    if (!userId) return 'unknown';
    const cancelled = await transact([
      eventPut(event),
      {
        Update: {
          TableName: tableName(),
          Key: payoutKeys.account(userId),
          UpdateExpression:
            'SET chargesEnabled = :charges, payoutsEnabled = :payouts, detailsSubmitted = :details, requirements = :requirements, lastEventAt = :at, updatedAt = :now',
          // Same-second events apply in the order they arrive; an older one never undoes a newer state.
          ConditionExpression: 'accountId = :account AND lastEventAt <= :at',
          ExpressionAttributeValues: {
            ':charges': state.chargesEnabled,
            ':payouts': state.payoutsEnabled,
            ':details': state.detailsSubmitted,
            ':requirements': state.requirements,
            ':at': eventAt,
            ':now': updatedAt,
            ':account': accountId,
          },
        },
      },
    ]);
    if (!cancelled) return 'applied';
    if (failedAt(cancelled, 0)) return 'duplicate';
    // Older than what is stored: recorded, so that a redelivery is a plain duplicate.
    return (await transact([eventPut(event)])) ? 'duplicate' : 'stale';
  },
});

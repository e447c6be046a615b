import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { planTypes } from '../contracts/plans.ts';
import type { CreditAccount, CreditRepository, LedgerEntry } from '../core/ports.ts';
import { documentClient, tableName, transact } from './table.ts';

/**
 * ai_credits and ai_credit_transactions (access pattern 6).
 * Account:  pk USER#<id>  sk CREDITS                       gsi1pk CREDITRESET  gsi1sk <billingPeriodEnd>#<id>  (due for reset)
 * Ledger:   pk USER#<id>  sk CREDITTX#<createdAt>#<key>    one row per change; the rows sum to the balance
 * Guard:    pk USER#<id>  sk CREDITKEY#<key>               exists once per idempotency key (spend, grant, reset, top-up)
 */
export const creditKeys = {
  account: (userId: string) => ({ pk: `USER#${userId}`, sk: 'CREDITS' }),
  dueForReset: (billingPeriodEnd: string, userId: string) => ({ gsi1pk: 'CREDITRESET', gsi1sk: `${billingPeriodEnd}#${userId}` }),
  ledger: (userId: string, createdAt: string, key: string) => ({ pk: `USER#${userId}`, sk: `CREDITTX#${createdAt}#${key}` }),
  guard: (userId: string, key: string) => ({ pk: `USER#${userId}`, sk: `CREDITKEY#${key}` }),
};

const accountItem = z.object({
  userId: z.string(),
  creditsRemaining: z.number().int().min(0),
  creditsUsed: z.number().int().min(0),
  monthlyAllocation: z.number().int().min(0),
  planType: z.enum(planTypes),
  billingPeriodEnd: z.string(),
});

const ledgerItem = z.object({
  actionType: z.string(),
  credits: z.number().int(),
  createdAt: z.string(),
  description: z.string().optional(),
});

const toAccount = (item: unknown): CreditAccount => accountItem.parse(item);
const toEntry = (item: unknown): LedgerEntry => {
  const { description, ...rest } = ledgerItem.parse(item);
  return description === undefined ? rest : { ...rest, description };
};

/** The whole account item (keys, reset index and fields): used when it is created. */
export const accountPut = (account: CreditAccount) => ({
  Put: {
    TableName: tableName(),
    Item: { ...creditKeys.account(account.userId), ...creditKeys.dueForReset(account.billingPeriodEnd, account.userId), type: 'CreditAccount', ...account },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The ledger row and the guard that makes its key happen once. Every change of a balance goes with these two. */
export const ledgerPuts = (userId: string, entry: LedgerEntry, key: string, requestHash?: string) => [
  {
    Put: {
      TableName: tableName(),
      Item: { ...creditKeys.guard(userId, key), type: 'CreditKey', key, createdAt: entry.createdAt, ...(requestHash ? { requestHash } : {}) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  {
    Put: {
      TableName: tableName(),
      Item: { ...creditKeys.ledger(userId, entry.createdAt, key), type: 'CreditTransaction', userId, key, ...entry },
    },
  },
];

/** Adds `credits` (> 0) to an existing account. */
export const balanceIncrease = (userId: string, credits: number) => ({
  Update: {
    TableName: tableName(),
    Key: creditKeys.account(userId),
    UpdateExpression: 'ADD creditsRemaining :n',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':n': credits },
  },
});

const readGuard = async (userId: string, key: string) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: creditKeys.guard(userId, key), ConsistentRead: true }))).Item;

export const dynamoCredits = (): CreditRepository => ({
  async getAccount(userId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: creditKeys.account(userId), ConsistentRead: true }));
    return Item ? toAccount(Item) : undefined;
  },

  async lastTransaction(userId) {
    const { Items } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tx)',
        ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':tx': 'CREDITTX#' },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return Items?.[0] ? toEntry(Items[0]) : undefined;
  },

  async spend({ userId, entry, key, requestHash }) {
    const cost = -entry.credits;
    const codes = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: creditKeys.account(userId),
          UpdateExpression: 'ADD creditsRemaining :minus, creditsUsed :cost',
          ConditionExpression: 'creditsRemaining >= :cost',
          ExpressionAttributeValues: { ':minus': -cost, ':cost': cost },
        },
      },
      ...ledgerPuts(userId, entry, key, requestHash),
    ]);
    if (!codes) return 'spent';
    if (codes[1] === 'ConditionalCheckFailed') {
      const guard = await readGuard(userId, key);
      return guard?.['requestHash'] === requestHash ? 'replayed' : 'key-reused';
    }
    const exists = await this.getAccount(userId);
    return exists ? 'insufficient' : 'no-account';
  },

  async credit({ userId, entry, key }) {
    const codes = await transact([balanceIncrease(userId, entry.credits), ...ledgerPuts(userId, entry, key)]);
    if (!codes) return 'credited';
    return codes[1] === 'ConditionalCheckFailed' ? 'replayed' : 'no-account';
  },

  async listDueForReset(now, cursor) {
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :due AND gsi1sk <= :now',
        ExpressionAttributeValues: { ':due': 'CREDITRESET', ':now': `${now}#~` },
        Limit: 100,
        ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) } : {}),
      }),
    );
    return {
      accounts: Items.map(toAccount),
      ...(LastEvaluatedKey ? { cursor: Buffer.from(JSON.stringify(LastEvaluatedKey)).toString('base64url') } : {}),
    };
  },

  async reset({ seen, next, entry, key }) {
    const codes = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: creditKeys.account(seen.userId),
          UpdateExpression: 'SET creditsRemaining = :balance, creditsUsed = :zero, billingPeriodEnd = :end, gsi1sk = :due',
          ConditionExpression: 'creditsRemaining = :seenBalance AND billingPeriodEnd = :seenEnd',
          ExpressionAttributeValues: {
            ':balance': next.creditsRemaining,
            ':zero': 0,
            ':end': next.billingPeriodEnd,
            ':due': creditKeys.dueForReset(next.billingPeriodEnd, seen.userId).gsi1sk,
            ':seenBalance': seen.creditsRemaining,
            ':seenEnd': seen.billingPeriodEnd,
          },
        },
      },
      ...ledgerPuts(seen.userId, entry, key),
    ]);
    if (!codes) return 'reset';
    return codes[1] === 'ConditionalCheckFailed' ? 'already' : 'changed';
  },

  async ledger(userId) {
    const entries: LedgerEntry[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const { Items = [], LastEvaluatedKey } = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tx)',
          ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':tx': 'CREDITTX#' },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      entries.push(...Items.map(toEntry));
      start = LastEvaluatedKey;
    } while (start);
    return entries;
  },
});

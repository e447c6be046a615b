import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { credits, creditTransaction } from '#contracts/credits.ts';
import type { CreditAccount, CreditRepository, LedgerEntry } from '#core/ports.ts';
import { documentClient, failedAt, tableName, transact } from '#data/table.ts';

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

/** The stored fields are the contract's (validated on read), plus the owner. */
const accountItem = credits
  .pick({ creditsRemaining: true, creditsUsed: true, monthlyAllocation: true, planType: true, billingPeriodEnd: true })
  .extend({ userId: z.string() });

const ledgerItem = creditTransaction.extend({ description: z.string().optional() });

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

/** The ledger row a guard stands for (same key, same createdAt): what a replayed spend answers with. */
const readLedgerRow = async (userId: string, guard: Record<string, unknown>): Promise<LedgerEntry | undefined> => {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: creditKeys.ledger(userId, String(guard['createdAt']), String(guard['key'])), ConsistentRead: true }),
  );
  return Item ? toEntry(Item) : undefined;
};

/** The account a successful spend just changed exists: its absence now is a broken invariant, not an answer. */
const existing = (account: CreditAccount | undefined): CreditAccount => {
  if (!account) throw new Error('the credit account vanished right after a spend');
  return account;
};

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

  async recentTransactions(userId, limit) {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tx)',
        ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':tx': 'CREDITTX#' },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    return Items.map(toEntry);
  },

  async spend({ userId, entry, key, requestHash }) {
    const cost = -entry.credits;
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: creditKeys.account(userId),
          UpdateExpression: 'ADD creditsRemaining :minus, creditsUsed :cost',
          ConditionExpression: 'creditsRemaining >= :cost',
          ExpressionAttributeValues: { ':minus': -cost, ':cost': cost },
          // A refusal comes back with the balance that refused it: no second read for the 402's message.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      ...ledgerPuts(userId, entry, key, requestHash),
    ]);
    if (!cancelled) return { status: 'spent', account: await this.getAccount(userId).then(existing), entry };
    if (failedAt(cancelled, 1)) {
      const guard = await readGuard(userId, key);
      if (guard?.['requestHash'] !== requestHash) return { status: 'key-reused' };
      const [account, original] = await Promise.all([this.getAccount(userId).then(existing), readLedgerRow(userId, guard)]);
      return { status: 'replayed', account, entry: original ?? entry };
    }
    const stored = cancelled.items[0];
    return stored ? { status: 'insufficient', account: toAccount(stored) } : { status: 'no-account' };
  },

  async credit({ userId, entry, key }) {
    const cancelled = await transact([balanceIncrease(userId, entry.credits), ...ledgerPuts(userId, entry, key)]);
    if (!cancelled) return 'credited';
    return failedAt(cancelled, 1) ? 'replayed' : 'no-account';
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
    const cancelled = await transact([
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
    if (!cancelled) return 'reset';
    return failedAt(cancelled, 1) ? 'already' : 'changed';
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

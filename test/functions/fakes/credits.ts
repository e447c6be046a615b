import type { CreditAccount, CreditRepository, LedgerEntry, SpendOutcome } from '#core/ports.ts';
import { copy, withHooks } from './hooks.ts';

interface Guard {
  key: string;
  createdAt: string;
  requestHash?: string;
}

/**
 * The credit items of the one table (accounts, ledger rows, idempotency guards), shared with the billing fake, whose
 * transactions open and top up accounts as functions/data/billing.ts does.
 */
export interface CreditTables {
  accounts: Map<string, CreditAccount>;
  guards: Map<string, Guard>;
  rows: Map<string, { key: string; entry: LedgerEntry }[]>;
}

const guardId = (userId: string, key: string) => `${userId}\u0000${key}`;

export const hasGuard = (tables: CreditTables, userId: string, key: string): boolean => tables.guards.has(guardId(userId, key));

/** The ledger row and the guard that makes its key happen once (`ledgerPuts` of functions/data/credits.ts). */
export const writeLedger = (tables: CreditTables, userId: string, entry: LedgerEntry, key: string, requestHash?: string): void => {
  tables.guards.set(guardId(userId, key), { key, createdAt: entry.createdAt, ...(requestHash ? { requestHash } : {}) });
  tables.rows.set(userId, [...(tables.rows.get(userId) ?? []), { key, entry: copy(entry) }]);
};

/** Ledger rows in the table's order: sk CREDITTX#<createdAt>#<key>. */
const sortedRows = (tables: CreditTables, userId: string) =>
  [...(tables.rows.get(userId) ?? [])].sort((a, b) => {
    const [x, y] = [`${a.entry.createdAt}#${a.key}`, `${b.entry.createdAt}#${b.key}`];
    return x < y ? -1 : x > y ? 1 : 0;
  });

/**
 * Credit accounts with the conditions of functions/data/credits.ts. Every write checks all of its conditions before it
 * changes anything (one transaction): a spend never overdraws, a key applies once (a replay answers with the original
 * row, a different request under the same key is refused), a reset applies only to the balance it read.
 */
export const memoryCredits = (options: { pageSize?: number } = {}) => {
  const pageSize = options.pageSize ?? 100;
  const tables: CreditTables = { accounts: new Map(), guards: new Map(), rows: new Map() };
  const dueKey = (a: CreditAccount) => `${a.billingPeriodEnd}#${a.userId}`;

  const repo = withHooks<CreditRepository>({
    async getAccount(userId) {
      const account = tables.accounts.get(userId);
      return account && copy(account);
    },

    async lastTransaction(userId) {
      const last = sortedRows(tables, userId).at(-1);
      return last && copy(last.entry);
    },

    async recentTransactions(userId, limit) {
      return sortedRows(tables, userId).reverse().slice(0, limit).map((row) => copy(row.entry));
    },

    async spend({ userId, entry, key, requestHash }): Promise<SpendOutcome> {
      const cost = -entry.credits;
      const account = tables.accounts.get(userId);
      const guard = tables.guards.get(guardId(userId, key));
      if (guard) {
        if (guard.requestHash !== requestHash) return { status: 'key-reused' };
        if (!account) throw new Error('the credit account vanished right after a spend');
        const original = tables.rows.get(userId)?.find((row) => row.key === key && row.entry.createdAt === guard.createdAt);
        return { status: 'replayed', account: copy(account), entry: copy(original?.entry ?? entry) };
      }
      if (!account) return { status: 'no-account' };
      if (account.creditsRemaining < cost) return { status: 'insufficient', account: copy(account) };
      account.creditsRemaining -= cost;
      account.creditsUsed += cost;
      writeLedger(tables, userId, entry, key, requestHash);
      return { status: 'spent', account: copy(account), entry: copy(entry) };
    },

    async credit({ userId, entry, key }) {
      if (hasGuard(tables, userId, key)) return 'replayed';
      const account = tables.accounts.get(userId);
      if (!account) return 'no-account';
      account.creditsRemaining += entry.credits;
      writeLedger(tables, userId, entry, key);
      return 'credited';
    },

    async listDueForReset(now, cursor) {
      const due = [...tables.accounts.values()]
        .filter((a) => dueKey(a) <= `${now}#~` && (cursor === undefined || dueKey(a) > cursor))
        .sort((a, b) => (dueKey(a) < dueKey(b) ? -1 : 1));
      const page = due.slice(0, pageSize);
      const last = page.at(-1);
      return { accounts: page.map(copy), ...(due.length > pageSize && last ? { cursor: dueKey(last) } : {}) };
    },

    async reset({ seen, next, entry, key }) {
      if (hasGuard(tables, seen.userId, key)) return 'already';
      const account = tables.accounts.get(seen.userId);
      if (!account || account.creditsRemaining !== seen.creditsRemaining || account.billingPeriodEnd !== seen.billingPeriodEnd) return 'changed';
      // Only what the real update sets: the balance, used credits and the period.
      Object.assign(account, { creditsRemaining: next.creditsRemaining, creditsUsed: 0, billingPeriodEnd: next.billingPeriodEnd });
      writeLedger(tables, seen.userId, entry, key);
      return 'reset';
    },

    async ledger(userId) {
      return sortedRows(tables, userId).map((row) => copy(row.entry));
    },
  });

  return Object.assign(repo, {
    tables,
    /** An account holding `account.creditsRemaining`, with the ledger row that explains the balance. */
    open(account: CreditAccount, createdAt = '2026-11-01T00:00:00.000Z') {
      tables.accounts.set(account.userId, copy(account));
      writeLedger(tables, account.userId, { actionType: 'test_grant', credits: account.creditsRemaining, createdAt }, `test:${account.userId}`);
    },
  });
};

export type MemoryCredits = ReturnType<typeof memoryCredits>;

/** A Starter account with `creditsRemaining` credits, period ending 1 December 2026. */
export const creditAccount = (over: Partial<CreditAccount> = {}): CreditAccount => ({
  userId: 'u1',
  creditsRemaining: 50,
  creditsUsed: 0,
  monthlyAllocation: 50,
  planType: 'starter',
  billingPeriodEnd: '2026-12-01T00:00:00.000Z',
  ...over,
});

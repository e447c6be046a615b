import type { User } from '#core/ports.ts';
import type { PriceIds } from '#core/billing/prices.ts';
import { memoryBilling } from './billing.ts';
import { NOW, sequentialIds, testClock } from './clock.ts';
import { memoryCredits } from './credits.ts';
import { memoryMetrics } from './metrics.ts';
import { memoryPaymentEvents, memoryPayments } from './payments.ts';
import { memoryDirectory, memoryUsers } from './users.ts';

export const PRICES: PriceIds = { starter: 'price_starter', pro: 'price_pro', credits: 'price_credits' };
export const APP_ORIGIN = 'https://app.example';

export const creator = (over: Partial<User> = {}): User => ({ id: 'u1', email: 'creator@example.com', role: 'creator', createdAt: '2026-11-01T00:00:00.000Z', ...over });

/**
 * Every port of core as an in-memory fake, wired like functions/composition/deps.ts wires the real ones (billing and credits
 * share one store, as they share one table). A use case takes the fields it needs.
 */
export const fakeDeps = (options: { now?: string; users?: User[] } = {}) => {
  const credits = memoryCredits();
  /** The people who asked for their account to be deleted (their deletion item exists). */
  const deleting = new Set<string>();
  return {
    deleting,
    accountDeletions: { requested: async (userId: string) => deleting.has(userId) },
    users: memoryUsers(options.users ?? [creator()]),
    directory: memoryDirectory(),
    credits,
    billing: memoryBilling(credits),
    payments: memoryPayments(),
    events: memoryPaymentEvents(),
    metrics: memoryMetrics(),
    clock: testClock(options.now ?? NOW),
    ids: sequentialIds(),
    prices: PRICES,
    appOrigin: APP_ORIGIN,
  };
};

export type FakeDeps = ReturnType<typeof fakeDeps>;

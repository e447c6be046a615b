import { CREDITS_HISTORY_MAX, isLow, type Credits, type CreditsResponse, type PurchaseCreditsBody, type UseCreditsBody, CREDIT_TOP_UP, CREDIT_TOP_UP_PRICE_PENCE } from '#contracts/credits.ts';
import { ensureCustomer } from '#core/billing/customer.ts';
import { type PriceIds, requireOwnOrigin } from '#core/billing/prices.ts';
import { ConflictError, ForbiddenError, InsufficientCreditsError } from '#core/errors.ts';
import type { BillingRepository, Clock, CreditAccount, CreditRepository, Ids, LedgerEntry, Metrics, Payments, UserRepository } from '#core/ports.ts';
import { nextPeriodEnd, periodKey } from '#core/credits/periods.ts';
import { throughPages, type SliceWork } from '#core/jobs/slices.ts';

export const creditsView = (account: CreditAccount, last: LedgerEntry | undefined): Credits => ({
  creditsRemaining: account.creditsRemaining,
  creditsUsed: account.creditsUsed,
  monthlyAllocation: account.monthlyAllocation,
  planType: account.planType,
  billingPeriodEnd: account.billingPeriodEnd,
  low: isLow(account.creditsRemaining, account.monthlyAllocation),
  lastTransaction: last ? { actionType: last.actionType, credits: last.credits, createdAt: last.createdAt } : null,
});

/**
 * GET /api/me/credits: null when the user has no credit account (not subscribed yet). The ledger's newest lines come
 * in the same read as the last one used to (one Query), so the card's history costs no extra request.
 */
export const getCredits = async (deps: { credits: CreditRepository }, userId: string): Promise<CreditsResponse> => {
  const [account, recent] = await Promise.all([deps.credits.getAccount(userId), deps.credits.recentTransactions(userId, CREDITS_HISTORY_MAX)]);
  if (!account) return null;
  const history = recent.map(({ actionType, credits, createdAt }) => ({ actionType, credits, createdAt }));
  return { ...creditsView(account, recent[0]), history };
};

/**
 * Spends credits: the balance check, the debit, the idempotency guard and the ledger row are one conditional
 * transaction, so concurrent spends never overdraw and a retried request (same Idempotency-Key) is charged once.
 * The repository answers with the account as the spend left it: nothing is read again here.
 */
export const useCredits = async (
  deps: { credits: CreditRepository; clock: Clock; ids: Ids; metrics: Metrics },
  input: { userId: string; body: UseCreditsBody; idempotencyKey?: string | undefined },
): Promise<Credits> => {
  const { creditsToUse, actionType, description } = input.body;
  const outcome = await deps.credits.spend({
    userId: input.userId,
    entry: { actionType, credits: -creditsToUse, createdAt: deps.clock.now().toISOString(), ...(description ? { description } : {}) },
    key: `use:${input.idempotencyKey ?? deps.ids.newId()}`,
    requestHash: JSON.stringify([creditsToUse, actionType, description ?? null]),
  });
  switch (outcome.status) {
    case 'spent':
      deps.metrics.record('CreditsSpent', creditsToUse);
      return creditsView(outcome.account, outcome.entry);
    case 'replayed':
      return creditsView(outcome.account, outcome.entry);
    case 'key-reused':
      throw new ConflictError('This Idempotency-Key was already used for a different request.');
    case 'insufficient':
    case 'no-account':
      throw new InsufficientCreditsError(
        `You need ${creditsToUse} AI credits for this and have ${outcome.status === 'insufficient' ? outcome.account.creditsRemaining : 0}. Please top up your credits.`,
      );
  }
};

export interface PurchaseCreditsDeps {
  billing: BillingRepository;
  payments: Payments;
  users: UserRepository;
  credits: CreditRepository;
  ids: Ids;
  clock: Clock;
  prices: PriceIds;
  appOrigin: string;
}

/**
 * A top-up of 100 credits: a payment-mode Checkout Session. Our own record of the purchase (session -> user,
 * credits) is what the webhook grants from; the browser coming back to the success page grants nothing. The same
 * Idempotency-Key (a retried click) gets the same session and the same record.
 */
export const purchaseCredits = async (
  deps: PurchaseCreditsDeps,
  input: { userId: string; body: PurchaseCreditsBody; idempotencyKey?: string | undefined },
): Promise<{ url: string }> => {
  requireOwnOrigin(deps.appOrigin, { successUrl: input.body.successUrl, cancelUrl: input.body.cancelUrl });
  if (!(await deps.credits.getAccount(input.userId))) {
    throw new ForbiddenError('Subscribe to Starter or Pro to buy AI credits.');
  }
  const customerId = await ensureCustomer(deps, input.userId);
  const session = await deps.payments.createCheckoutSession({
    mode: 'payment',
    customerId,
    userId: input.userId,
    priceId: deps.prices.credits,
    successUrl: input.body.successUrl,
    cancelUrl: input.body.cancelUrl,
    metadata: { userId: input.userId, purpose: 'credits' },
    idempotencyKey: `credits:${input.userId}:${input.idempotencyKey ?? deps.ids.newId()}`,
  });
  await deps.billing.savePendingPurchase({
    sessionId: session.id,
    userId: input.userId,
    credits: CREDIT_TOP_UP,
    pricePence: CREDIT_TOP_UP_PRICE_PENCE,
    createdAt: deps.clock.now().toISOString(),
  });
  return { url: session.url };
};

const MAX_ATTEMPTS = 8;

/**
 * The monthly reset of one account whose period has ended: the balance is topped back up to the monthly allocation
 * (credits above it, from top-ups, are kept), used credits start again at 0, and the period moves on. Keyed by the
 * period, so a second run (or a double delivery) applies nothing; conditional on the balance it read, so a spend
 * racing it makes it re-read instead of overwriting.
 */
export const resetAccount = async (
  deps: { credits: CreditRepository; clock: Clock },
  account: CreditAccount,
): Promise<'reset' | 'already' | 'not-due'> => {
  let seen: CreditAccount = account;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = deps.clock.now();
    if (Date.parse(seen.billingPeriodEnd) > now.getTime()) return 'not-due';
    const balance = Math.max(seen.creditsRemaining, seen.monthlyAllocation);
    const result = await deps.credits.reset({
      seen,
      next: { ...seen, creditsRemaining: balance, creditsUsed: 0, billingPeriodEnd: nextPeriodEnd(seen.billingPeriodEnd, now) },
      entry: { actionType: 'monthly_reset', credits: balance - seen.creditsRemaining, createdAt: now.toISOString() },
      key: `reset:${periodKey(seen.billingPeriodEnd)}`,
    });
    if (result !== 'changed') return result;
    const reread = await deps.credits.getAccount(account.userId);
    if (!reread) return 'already';
    seen = reread;
  }
  // Not "not due": the period did end. The job fails loudly and its next run (keyed by period) tries again.
  throw new Error(`credit account ${account.userId} kept changing during its reset (${MAX_ATTEMPTS} attempts)`);
};

/**
 * The scheduled job's work on one slice (the job engine, decision 0032): the accounts due, a page at a time from the
 * slice's cursor, each reset while the slice has time (`timeUp`, checked before each account). An account reset twice
 * (a slice delivered again after a kill, an overlapping run) is 'already': keyed by its period, nothing is applied twice;
 * a reset account leaves the listing (its period moved on), so reading a page again skips nothing.
 */
export const resetDueAccounts =
  (deps: { credits: CreditRepository; clock: Clock }): SliceWork<{ reset: number; skipped: number }> =>
  async (slice, timeUp) => {
    let reset = 0;
    let skipped = 0;
    const { cursor } = await throughPages({
      cursor: slice.cursor,
      timeUp,
      page: async (from) => {
        const page = await deps.credits.listDueForReset(deps.clock.now().toISOString(), from);
        return { items: page.accounts, nextCursor: page.cursor };
      },
      handle: async (account: CreditAccount) => {
        if ((await resetAccount(deps, account)) === 'reset') reset++;
        else skipped++;
      },
    });
    return { cursor, counts: { reset, skipped } };
  };

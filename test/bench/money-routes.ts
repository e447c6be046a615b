import { createAccount } from '#core/accounts/create-account.ts';
import { addMonths } from '#core/credits/periods.ts';
import type { CreditAccount } from '#core/ports.ts';
import { dynamoBilling } from '#data/billing.ts';
import { accountPut, dynamoCredits, ledgerPuts } from '#data/credits.ts';
import { transact } from '#data/table.ts';
import { getDeps, priceIds } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { CONNECTIONS, signIn } from './api-latency.ts';
import { combineSlices, non2xxCodes, runLoad, type RouteLatency } from './load.ts';
import type { LoadSpec, StripeEventsSpec } from './load-worker.ts';
import { ms } from './stats.ts';
import { errorRow, row, section, type Row } from './table.ts';
import { measureWriteFloor, type WriteFloor } from './write-floor.ts';

const WARMUP_SECONDS = 1;
const SECONDS = 4;
const WRITE_FLOOR_SECONDS = 3;
/** Enough for every spend of the run at 1 credit each: a 402 would measure the refusal, not the spend. */
const BENCH_CREDITS = 10_000_000;
const CUSTOMER_ID = 'cus_bench';
const SUBSCRIPTION_ID = 'sub_bench';

interface BenchCreator {
  userId: string;
  token: string;
}

/**
 * A creator of its own (not the seeded demo creator, whose data other features may grow) with a credit account
 * written as the product writes one: the account and its first ledger row in one transaction, so the ledger sums
 * to the balance from the start. Linked to a Stripe customer for the subscription events.
 */
const setUpCreator = async (cloud: LocalCloud): Promise<BenchCreator> => {
  applyFunctionEnv(cloud.env);
  const email = `bench-creator-${Date.now()}@example.com`;
  const password = 'BenchCreator123';
  const user = await createAccount(getDeps(), { email, role: 'creator', password });
  const now = new Date().toISOString();
  const account: CreditAccount = {
    userId: user.id,
    creditsRemaining: BENCH_CREDITS,
    creditsUsed: 0,
    monthlyAllocation: 200,
    planType: 'pro',
    // A month away: the reset job must not touch the account during the run.
    billingPeriodEnd: addMonths(now, 1),
  };
  const cancelled = await transact([accountPut(account), ...ledgerPuts(user.id, { actionType: 'bench_grant', credits: BENCH_CREDITS, createdAt: now }, 'bench:grant')]);
  if (cancelled) throw new Error(`the credit account was not written (${cancelled.codes.join(', ')})`);
  await dynamoBilling().saveCustomer(user.id, CUSTOMER_ID);
  const { token } = await signIn(cloud, email, password);
  return { userId: user.id, token };
};

const latencyRows = (label: string, load: RouteLatency, floor: WriteFloor | undefined): Row[] => {
  const codes = non2xxCodes(load.statusCodes);
  const vsFloor = (at: 'p50' | 'p99') => `${ms(load[at])}${floor ? ` (${(load[at] / floor[at]).toFixed(2)}x PutItem floor)` : ''}`;
  return [
    row(`${label} p50 (${CONNECTIONS} connections)`, vsFloor('p50')),
    row(`${label} p99`, vsFloor('p99')),
    row(`${label} throughput`, `${load.requestsPerSecond.toFixed(0)} req/s`),
    row(`${label} non-2xx / errors (incl. timeouts)`, `${load.non2xx}${codes ? ` (${codes})` : ''} / ${load.errors}`, '0 / 0', load.non2xx === 0 && load.errors === 0),
  ];
};

const load = async (spec: Omit<LoadSpec, 'connections' | 'warmupSeconds' | 'seconds'>): Promise<RouteLatency> =>
  combineSlices([await runLoad({ ...spec, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS })]);

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));
const count = (n: number): string => n.toLocaleString('en-GB');
const eq = (a: number, b: number): string => (a === b ? '=' : '≠');

/**
 * After the load: do the ledger rows still sum to the balance, and does `creditsUsed` match the spends? Read until
 * the balance holds still (a spend the gateway was still finishing when the load generator stopped lands late).
 */
const ledgerCheck = async (userId: string): Promise<Row> => {
  const credits = dynamoCredits();
  for (let attempt = 0; attempt < 10; attempt++) {
    const before = await credits.getAccount(userId);
    const entries = await credits.ledger(userId);
    const after = await credits.getAccount(userId);
    if (!before || !after) throw new Error('the credit account is gone');
    if (before.creditsRemaining !== after.creditsRemaining) {
      await sleep(300);
      continue;
    }
    const sum = entries.reduce((acc, e) => acc + e.credits, 0);
    const spent = entries.reduce((acc, e) => acc + (e.credits < 0 ? -e.credits : 0), 0);
    const ok = sum === after.creditsRemaining && spent === after.creditsUsed;
    return row(
      'credits/use ledger after the load (rows sum = balance, spends = creditsUsed)',
      `${count(entries.length)} rows: sum ${count(sum)} ${eq(sum, after.creditsRemaining)} balance ${count(after.creditsRemaining)}, ` +
        `spends ${count(spent)} ${eq(spent, after.creditsUsed)} creditsUsed ${count(after.creditsUsed)}`,
      'equal',
      ok,
    );
  }
  throw new Error('the balance kept changing after the load stopped');
};

/** What the subscription events left: the last one applied must be an `active` subscription on the Pro price. */
const subscriptionCheck = async (userId: string, firstCreated: number): Promise<Row> => {
  const sub = await dynamoBilling().getSubscription(userId);
  if (!sub) return row('stored subscription after the events', 'none (no event applied)', 'active pro', false);
  return row(
    'stored subscription after the events',
    `${sub.status} ${sub.tier ?? 'no tier'}, last applied event #${count(sub.lastEventAt - firstCreated + 1)}`,
    'active pro',
    sub.status === 'active' && sub.tier === 'pro',
  );
};

const webhookEvents = (cloud: LocalCloud, gatewayUrl: string, stripeEvents: StripeEventsSpec) =>
  load({ url: `${gatewayUrl}/api/webhooks/stripe`, method: 'POST', headers: { 'content-type': 'application/json' }, stripeEvents });

/** Runs one part; its failure is an error row and the next part still runs. */
const attempt = async (metric: string, part: () => Promise<Row[]>): Promise<Row[]> => {
  try {
    return await part();
  } catch (error) {
    return [errorRow(metric, error)];
  }
};

/**
 * The money routes on the bench's unthrottled gateway: POST /api/credits/use (every spend one conditional
 * transaction on the same account: the contended case) and the Stripe webhook with distinct, correctly signed
 * events (the worker signs each one). QUALITY.md gives them no latency budget: zero failures, and p50 and p99 shown
 * against the PutItem floor of the same run.
 */
export const benchMoneyRoutes = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  const rows: Row[] = [section(`Money routes on the same gateway (${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s each)`)];
  let creator: BenchCreator | undefined;
  try {
    log(`creating a bench creator with ${count(BENCH_CREDITS)} credits`);
    creator = await setUpCreator(cloud);
  } catch (error) {
    rows.push(errorRow('bench creator with a credit account (needed by credits/use and subscription events)', error));
  }
  let floor: WriteFloor | undefined;
  try {
    log(`raw conditional PutItem, ${CONNECTIONS} in flight (the write floor)`);
    floor = await measureWriteFloor(cloud, CONNECTIONS, WRITE_FLOOR_SECONDS);
    rows.push(
      row(`PutItem floor p50 / p99 (${CONNECTIONS} in flight; DynamoDB Local writes to SQLite on disk)`, `${ms(floor.p50)} / ${ms(floor.p99)}`),
      row('PutItem floor throughput / errors', `${floor.requestsPerSecond.toFixed(0)} req/s / ${floor.errors}`, '0 errors', floor.errors === 0),
    );
  } catch (error) {
    rows.push(errorRow('PutItem floor', error));
  }
  const now = Math.floor(Date.now() / 1000);
  const secret = cloud.outputs.StripeWebhookSecret;

  if (creator) {
    const { token, userId } = creator;
    rows.push(
      ...(await attempt('POST /api/credits/use', async () => {
        log(`POST /api/credits/use with ${CONNECTIONS} connections, then reading the ledger`);
        const latency = await load({
          url: `${gatewayUrl}/api/credits/use`,
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ creditsToUse: 1, actionType: 'bench_spend' }),
        });
        return [...latencyRows('POST /api/credits/use', latency, floor), await ledgerCheck(userId).catch((error: unknown) => errorRow('credits/use ledger after the load', error))];
      })),
    );
  }

  rows.push(
    ...(await attempt('webhook invoice.paid', async () => {
      log(`POST /api/webhooks/stripe: distinct signed invoice.paid events, ${CONNECTIONS} connections`);
      return latencyRows('webhook invoice.paid', await webhookEvents(cloud, gatewayUrl, { type: 'invoice.paid', secret, firstCreated: now }), floor);
    })),
  );

  if (creator) {
    const { userId } = creator;
    rows.push(
      ...(await attempt('webhook customer.subscription.updated', async () => {
        log(`POST /api/webhooks/stripe: customer.subscription.updated, each newer than the last, ${CONNECTIONS} connections`);
        const subscription = { customerId: CUSTOMER_ID, subscriptionId: SUBSCRIPTION_ID, priceId: priceIds().pro, periodEnd: now + 30 * 24 * 3600 };
        const latency = await webhookEvents(cloud, gatewayUrl, { type: 'customer.subscription.updated', secret, firstCreated: now, subscription });
        return [
          ...latencyRows('webhook customer.subscription.updated', latency, floor),
          await subscriptionCheck(userId, now).catch((error: unknown) => errorRow('stored subscription after the events', error)),
        ];
      })),
    );
  }
  return rows;
};

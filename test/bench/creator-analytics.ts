import { pathToFileURL } from 'node:url';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#core/accounts/create-account.ts';
import { countersOf, orderKeys } from '#data/orders.ts';
import { documentClient } from '#data/table.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';
import { signIn } from './api-latency.ts';
import { consumedCapacity, count, fetchOk, runPartAlone, seedingHow, writeAll } from './cloud-part.ts';
import { ms, percentile } from './stats.ts';
import { errorRow, row, type Row } from './table.ts';

/**
 * A creator's sales analytics over a year at 10 and at 10,000 orders (issue 12 point 10: within 1.5x). The orders are
 * written straight into the table as functions/data/orders.ts writes a paid order (its keys and the Sales index), over
 * the last 365 days across three courses, and each day's counters (totals and per course, on its month's item) moved by
 * what was written, as the payments' transactions would have. GET /api/creator/analytics?days=365 reads the month items
 * of the window (at most 13, one packed number a day) and the day details of the two months the window cuts: its cost
 * must not grow with the orders. Run alone: `node --import tsx test/bench/creator-analytics.ts`.
 */
const SMALL = 10;
const LARGE = Number(process.env['BENCH_ANALYTICS_ORDERS'] ?? 10_000);
const WARM_UP_REQUESTS = 20;
const REQUESTS = 200;
const RATIO_BUDGET = 1.5;
const DAY_MS = 86_400_000;
const COURSES = ['bench-course-a', 'bench-course-b', 'bench-course-c'];

/** `orders` paid orders of the creator, spread over the last 365 days, and the day counters they add up to. */
const seedOrders = (creatorId: string, orders: number, from: number, now: number) => {
  const items: Record<string, unknown>[] = [];
  const days = new Map<string, Record<string, number>>();
  for (let n = from; n < from + orders; n++) {
    const id = `bench-order-${creatorId}-${n}`;
    const courseId = COURSES[n % COURSES.length]!;
    // Spread over the year from the first orders on (a creator's ten sales are not all in one week).
    const paidAt = new Date(now - ((n * 37) % 365) * DAY_MS - (n % 1000) * 1000).toISOString();
    const amount = 1000 + (n % 5) * 500;
    items.push({
      ...orderKeys.order(id),
      ...orderKeys.sales(creatorId, paidAt, id),
      type: 'Order',
      ...pendingOrder({ id, courseId, courseTitle: courseId, creatorId, accountId: 'acct_bench', status: 'paid', buyerEmail: `buyer-${n}@bench.example.com`, price: amount, amount, createdAt: paidAt, paidAt }),
    });
    const day = days.get(paidAt.slice(0, 10)) ?? {};
    for (const [name, add] of [[`rev_${courseId}`, amount], [`n_${courseId}`, 1]] as const) day[name] = (day[name] ?? 0) + add;
    days.set(paidAt.slice(0, 10), day);
  }
  return { items, days };
};

/**
 * Moves the counters by each day's sales of each course, through the writes a payment makes (functions/data/orders.ts
 * countersOf: ADDs add up, so one move per day and course stands for all its orders), 2 in flight.
 */
const countDays = async (creatorId: string, days: Map<string, Record<string, number>>): Promise<void> => {
  const moves = [...days].flatMap(([date, sums]) =>
    COURSES.filter((courseId) => (sums[`n_${courseId}`] ?? 0) > 0).map((courseId) =>
      countersOf({ creatorId, courseId, couponCode: null }, `${date}T00:00:00.000Z`, {
        revenue: sums[`rev_${courseId}`] ?? 0,
        sales: sums[`n_${courseId}`] ?? 0,
        discount: 0,
        refunds: 0,
      }),
    ),
  );
  const lane = async () => {
    for (let move = moves.shift(); move; move = moves.shift()) {
      for (const { Update } of move) await documentClient().send(new UpdateCommand(Update));
    }
  };
  await Promise.all([lane(), lane()]);
};

interface Sample {
  times: number[];
  failures: number;
  sales?: number;
}

const measure = async (url: string, token: string): Promise<Sample> => {
  const sample: Sample = { times: [], failures: 0 };
  for (let i = 0; i < WARM_UP_REQUESTS + REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (i < WARM_UP_REQUESTS) continue;
    if (res.status !== 200) sample.failures += 1;
    else {
      sample.times.push(performance.now() - started);
      sample.sales = (JSON.parse(body) as { sales: number }).sales;
    }
  }
  return sample;
};

const sampleRow = (s: Sample): Row =>
  row(`GET /api/creator/analytics?days=365 at ${count(s.sales ?? 0)} orders p50 / p95`, `${ms(percentile(s.times, 50))} / ${ms(percentile(s.times, 95))}`);

export const creatorAnalyticsSection = `Creator analytics, GET /api/creator/analytics?days=365: ${SMALL} vs ${count(LARGE)} orders (1 in flight, ${REQUESTS} each after ${WARM_UP_REQUESTS} warm-up)`;

/** The rows of this part, on a running local cloud and a gateway with the throttles lifted. */
export const benchCreatorAnalytics = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  const rows: Row[] = [];
  const url = `${gatewayUrl}/api/creator/analytics?days=365`;
  try {
    applyFunctionEnv(cloud.env);
    const email = `bench-seller-${Date.now()}@example.com`;
    const password = 'BenchSeller123';
    const creator = await createAccount(getDeps(), { email, role: 'creator', password });
    const { token } = await signIn(cloud, email, password);
    const now = Date.now();
    const seed = async (orders: number, from: number) => {
      const seeded = seedOrders(creator.id, orders, from, now);
      await writeAll(cloud, seeded.items, (written) => log(`${count(written)} of ${count(seeded.items.length)} orders written`));
      await countDays(creator.id, seeded.days);
    };
    await seed(SMALL, 0);
    log(`GET /api/creator/analytics at ${SMALL} orders`);
    const small = await measure(url, token);
    const smallCapacity = await consumedCapacity(() => fetchOk(url, token));
    const started = performance.now();
    await seed(LARGE - SMALL, SMALL);
    rows.push(row(`seeding ${count(LARGE - SMALL)} more orders and their day counters: ${seedingHow}`, `${((performance.now() - started) / 1000).toFixed(1)} s`));
    log(`GET /api/creator/analytics at ${count(LARGE)} orders`);
    const large = await measure(url, token);
    const largeCapacity = await consumedCapacity(() => fetchOk(url, token));
    const ratio = percentile(large.times, 50) / percentile(small.times, 50);
    rows.push(
      sampleRow(small),
      sampleRow(large),
      row('orders counted at each size; non-2xx', `${small.sales ?? 0} / ${count(large.sales ?? 0)}; ${small.failures + large.failures}`, `${SMALL} / ${count(LARGE)}; 0`, small.sales === SMALL && large.sales === LARGE && small.failures + large.failures === 0),
      row(`ratio p50 at ${count(LARGE)} / p50 at ${SMALL}`, `${ratio.toFixed(2)}x`, `<= ${RATIO_BUDGET}x`, ratio <= RATIO_BUDGET),
      row(
        'DynamoDB calls of one analytics read, small / large (month items, the day details of the 2 months cut, course list)',
        smallCapacity && largeCapacity ? `${smallCapacity.calls} / ${largeCapacity.calls} (${smallCapacity.units} / ${largeCapacity.units} RCU)` : 'not reported by DynamoDB Local',
        smallCapacity && largeCapacity ? 'the same' : undefined,
        smallCapacity && largeCapacity ? smallCapacity.calls === largeCapacity.calls : undefined,
      ),
    );
  } catch (error) {
    rows.push(errorRow('creator analytics', error));
  }
  return rows;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPartAlone('creator-analytics', creatorAnalyticsSection, benchCreatorAnalytics);

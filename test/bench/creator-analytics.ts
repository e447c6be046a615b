import { pathToFileURL } from 'node:url';
import { NumberValue, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#core/accounts/create-account.ts';
import { amountAndCount, orderKeys, pairDelta } from '#data/orders.ts';
import { documentClient, tableName } from '#data/table.ts';
import { getDeps } from '#functions/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
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
      id,
      courseId,
      courseTitle: courseId,
      creatorId,
      accountId: 'acct_bench',
      status: 'paid',
      buyerEmail: `buyer-${n}@bench.example.com`,
      price: amount,
      discount: 0,
      amount,
      currency: 'gbp',
      couponCode: null,
      affiliateId: null,
      seats: null,
      checkoutSessionId: null,
      checkoutUrl: null,
      paymentIntentId: null,
      learnerId: null,
      createdAt: paidAt,
      paidAt,
    });
    const day = days.get(paidAt.slice(0, 10)) ?? {};
    for (const [name, add] of [['revenue', amount], ['sales', 1], [`rev_${courseId}`, amount], [`n_${courseId}`, 1]] as const) day[name] = (day[name] ?? 0) + add;
    days.set(paidAt.slice(0, 10), day);
  }
  return { items, days };
};

/** ADDs each day's sums to its month's counter items (functions/data/orders.ts's format), as the payments' transactions do. */
const countDays = async (creatorId: string, days: Map<string, Record<string, number>>): Promise<void> => {
  const items = new Map<string, { key: Record<string, string>; type: string; adds: Record<string, number | NumberValue> }>();
  const itemOf = (key: Record<string, string>, type: string) => {
    const id = `${key['pk']}/${key['sk']}`;
    const found = items.get(id) ?? { key, type, adds: {} };
    items.set(id, found);
    return found.adds;
  };
  const months = new Map<string, Record<string, { revenue: number; sales: number }>>();
  for (const [date, sums] of days) {
    const at = `${date}T00:00:00.000Z`;
    const month = itemOf(orderKeys.month(creatorId, at), 'SalesCounters');
    month['revenue'] = ((month['revenue'] as number | undefined) ?? 0) + (sums['revenue'] ?? 0);
    month['sales'] = ((month['sales'] as number | undefined) ?? 0) + (sums['sales'] ?? 0);
    // Two days share an attribute: their moves add up, as two ADDs would.
    for (const [name, delta] of Object.entries(pairDelta(at, sums['revenue'] ?? 0, sums['sales'] ?? 0))) {
      const before = month[name];
      month[name] = before instanceof NumberValue ? NumberValue.from((BigInt(before.value) + BigInt(delta.value)).toString()) : delta;
    }
    const detail = itemOf(orderKeys.days(creatorId, at), 'SalesDays');
    const perCourse = months.get(date.slice(0, 7)) ?? {};
    for (const courseId of COURSES) {
      const [revenue = 0, sales = 0] = [sums[`rev_${courseId}`], sums[`n_${courseId}`]];
      if (sales === 0) continue;
      detail[`${date.slice(8, 10)}c_${courseId}`] = amountAndCount.delta(revenue, sales);
      const sum = perCourse[courseId] ?? { revenue: 0, sales: 0 };
      perCourse[courseId] = { revenue: sum.revenue + revenue, sales: sum.sales + sales };
    }
    months.set(date.slice(0, 7), perCourse);
  }
  for (const [month, perCourse] of months) {
    const adds = itemOf(orderKeys.month(creatorId, `${month}-01`), 'SalesCounters');
    for (const [courseId, sum] of Object.entries(perCourse)) adds[`c_${courseId}`] = amountAndCount.delta(sum.revenue, sum.sales);
  }
  for (const { key, type, adds } of items.values()) {
    const names = Object.keys(adds);
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `ADD ${names.map((_, i) => `#n${i} :v${i}`).join(', ')} SET #type = :type`,
        ExpressionAttributeNames: { ...Object.fromEntries(names.map((name, i) => [`#n${i}`, name])), '#type': 'type' },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((name, i) => [`:v${i}`, adds[name]])), ':type': type },
      }),
    );
  }
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

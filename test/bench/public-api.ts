import { pathToFileURL } from 'node:url';
import { API_RATE_LIMIT } from '#contracts/api-keys.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { counterDeltas } from '#core/billing/subscription-state.ts';
import type { StoredSubscription } from '#core/ports.ts';
import { dynamoBilling } from '#data/billing.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { signIn } from './api-latency.ts';
import { count } from './cloud-part.ts';
import { non2xxCodes } from './load.ts';
import { ms, percentile } from './stats.ts';
import { errorRow, row, shortMessage, type Row } from './table.ts';

/**
 * The public API's read route against the dashboard's (issue 31: "the bench shows the API's read route within 1.5x of
 * the dashboard's"). One Pro creator of the bench's own (its subscription written through the billing data module, as
 * the integration tests' `givePlan` does), COURSES courses made through POST /api/courses and one key made through
 * POST /api/api-keys. Then GET /v1/courses with the key (the key authorizer, its answer cached a minute as API
 * Gateway does, then the handler's bucket, scope and plan checks) and GET /api/courses with the creator's access
 * token, one request in flight, the two alternating (each pair in the other order) so the noise of a shared machine
 * falls on both alike.
 *
 * Paced, not flat out: the key's bucket admits API_RATE_LIMIT.rate calls a second, and a 429 would measure the refusal,
 * not the route. A pair starts every 1/PACE s, so each side runs at PACE a second, both at the same rate (the
 * remembered profile and plan reads expire alike on both). A 429 is a failure of the row, never a sample.
 * bench.ts adds `benchPublicApi`'s rows; run alone: `node --import tsx test/bench/public-api.ts`.
 */

const COURSES = 20;
const WARM_UP_REQUESTS = 20;
const REQUESTS = 200;
/** Requests a second on each side: under the key's steady rate, so its bucket never runs dry. */
const PACE = 8;
const RATIO_BUDGET = 1.5;
const PASSWORD = 'BenchCreator123';

if (PACE >= API_RATE_LIMIT.rate) throw new Error(`the public API bench's pace (${PACE}/s) must stay under the key's rate (${API_RATE_LIMIT.rate}/s)`);

/** A Pro subscription as Stripe's webhook leaves one, written by the billing data module (the `api` feature needs Pro). */
export const givePro = async (userId: string): Promise<void> => {
  const billing = dynamoBilling();
  await billing.saveCustomer(userId, `cus_bench_api_${userId}`);
  const before = await billing.getSubscription(userId);
  const now = new Date();
  const after: StoredSubscription = {
    userId,
    subscriptionId: `sub_bench_api_${userId}`,
    customerId: `cus_bench_api_${userId}`,
    status: 'active',
    tier: 'pro',
    trialEnd: null,
    currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    cancelAtPeriodEnd: false,
    lastEventAt: Math.floor(now.getTime() / 1000) - 1,
    lastEventRank: 0,
    updatedAt: now.toISOString(),
    hasSubscribed: true,
  };
  const outcome = await billing.applySubscriptionEvent({ event: { id: `evt_bench_api_${userId}`, type: 'customer.subscription.created' }, before, after, counters: counterDeltas(before, after) });
  if (outcome !== 'applied') throw new Error(`the bench creator's Pro plan was not written (${outcome})`);
};

const send = async (url: string, init: { method?: string; token: string; body?: unknown }): Promise<Response> =>
  fetch(url, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

interface Side {
  label: string;
  url: string;
  /** What goes after `Bearer `: the access token or the API key. */
  bearer: string;
  times: number[];
  statusCodes: Record<string, number>;
  errors: number;
  firstError?: string;
  /** The course ids of the last 200, in order: both sides must list the same courses. */
  ids: string[];
}

/** One request of a side; a measured one is counted, and timed only when it answers 200. */
const once = async (side: Side, measured: boolean): Promise<void> => {
  const started = performance.now();
  try {
    const res = await fetch(side.url, { headers: { authorization: `Bearer ${side.bearer}` } });
    const body = await res.text();
    const elapsed = performance.now() - started;
    if (!measured) return;
    side.statusCodes[res.status] = (side.statusCodes[res.status] ?? 0) + 1;
    if (res.status !== 200) return;
    side.times.push(elapsed);
    side.ids = (JSON.parse(body) as { items: { id: string }[] }).items.map((c) => c.id);
  } catch (error) {
    if (!measured) return;
    side.errors += 1;
    side.firstError ??= shortMessage((error as { cause?: unknown }).cause ?? error);
  }
};

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

export const publicApiSection = `Public API vs dashboard, GET /v1/courses (API key) vs GET /api/courses (access token): one creator, ${COURSES} courses (1 in flight, ${REQUESTS} each after ${WARM_UP_REQUESTS} warm-up, alternating, ${PACE}/s each)`;

/** The rows of this part, on a running local cloud and a gateway with the route throttles lifted (the key's bucket stays). */
export const benchPublicApi = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  let token: string;
  let key: string;
  try {
    applyFunctionEnv(cloud.env);
    log(`creating a Pro bench creator, ${COURSES} courses (POST /api/courses) and an API key (POST /api/api-keys)`);
    const email = `bench-public-api-${Date.now()}@example.com`;
    const creator = await createAccount(getDeps(), { email, role: 'creator', password: PASSWORD });
    await givePro(creator.id);
    ({ token } = await signIn(cloud, email, PASSWORD));
    for (let i = 1; i <= COURSES; i++) {
      const res = await send(`${gatewayUrl}/api/courses`, { method: 'POST', token, body: { title: `Bench API course ${i}` } });
      if (res.status !== 201) throw new Error(`POST /api/courses answered ${res.status}: ${await res.text()}`);
    }
    const made = await send(`${gatewayUrl}/api/api-keys`, { method: 'POST', token, body: { name: 'Bench', scopes: ['courses:read'] } });
    if (made.status !== 201) throw new Error(`POST /api/api-keys answered ${made.status}: ${await made.text()}`);
    ({ key } = (await made.json()) as { key: string });
  } catch (error) {
    return [errorRow('public API bench: Pro creator, courses and key', error)];
  }

  try {
    const side = (label: string, path: string, bearer: string): Side => ({ label, url: `${gatewayUrl}${path}`, bearer, times: [], statusCodes: {}, errors: 0, ids: [] });
    const v1 = side('GET /v1/courses (API key)', '/v1/courses', key);
    const dashboard = side('GET /api/courses (access token)', '/api/courses', token);
    log(`GET /v1/courses and GET /api/courses alternating at ${PACE}/s each: ${WARM_UP_REQUESTS} warm-up, ${REQUESTS} measured each`);
    const interval = 1000 / PACE;
    const started = performance.now();
    for (let i = 0; i < WARM_UP_REQUESTS + REQUESTS; i++) {
      // The next pair starts on its slot, however long this one took: the key never runs faster than PACE.
      await sleep(Math.max(0, started + i * interval - performance.now()));
      for (const s of i % 2 === 0 ? [v1, dashboard] : [dashboard, v1]) await once(s, i >= WARM_UP_REQUESTS);
    }
    const failures = (s: Side) => Object.entries(s.statusCodes).filter(([code]) => code !== '200').reduce((acc, [, n]) => acc + n, 0);
    const failed = failures(v1) + failures(dashboard);
    const errors = v1.errors + dashboard.errors;
    const why = v1.firstError ?? dashboard.firstError;
    const codes = [non2xxCodes(v1.statusCodes), non2xxCodes(dashboard.statusCodes)].filter(Boolean).join(' ');
    const sameCourses = v1.ids.length === COURSES && v1.ids.join() === dashboard.ids.join();
    const [p50, p99] = [(s: Side) => percentile(s.times, 50), (s: Side) => percentile(s.times, 99)];
    const ratio = p50(v1) / p50(dashboard);
    // A ratio over the answers left after a 429 is not the claim: any failure fails it too.
    const clean = sameCourses && failed === 0 && errors === 0;
    return [
      row(`${dashboard.label} p50 / p99 (${count(dashboard.times.length)} answers)`, `${ms(p50(dashboard))} / ${ms(p99(dashboard))}`),
      row(`${v1.label} p50 / p99 (${count(v1.times.length)} answers)`, `${ms(p50(v1))} / ${ms(p99(v1))}`),
      row(
        'courses listed /v1 / dashboard (the same); non-2xx (429 included) / errors',
        `${v1.ids.length} / ${dashboard.ids.length}${sameCourses ? ' (same)' : ' (differ)'}; ${failed}${codes ? ` (${codes})` : ''} / ${errors}${why ? ` (first: ${why})` : ''}`,
        `${COURSES} / ${COURSES} (same); 0 / 0`,
        clean,
      ),
      row(`ratio p99 /v1 / p99 dashboard`, `${(p99(v1) / p99(dashboard)).toFixed(2)}x`),
      row('ratio p50 /v1 / p50 dashboard', `${ratio.toFixed(2)}x`, `<= ${RATIO_BUDGET}x`, clean && ratio <= RATIO_BUDGET),
    ];
  } catch (error) {
    return [errorRow('GET /v1/courses vs GET /api/courses', error)];
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runPartAlone } = await import('./cloud-part.ts');
  await runPartAlone('public-api', publicApiSection, benchPublicApi);
}

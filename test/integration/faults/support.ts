import { appendFileSync } from 'node:fs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { payoutKeys } from '#data/payouts.ts';
import type { FaultPlan } from '#lib/local/faults/proxy.ts';
import { firstSignIn, mailsTo } from '../mail-support.ts';
import { accountWithRole, api, dynamo, eventually, outputs } from '../support.ts';

/**
 * The fault suite's tools (issue 16; docs/faults.md): the local cloud's fault control, and a caller that retries as a
 * well-behaved client does (the same request and idempotency key again after a 502/503, a dropped connection or its
 * own timeout, waiting what Retry-After says) and records every attempt.
 */

const control = async (method: string, path: string, body?: unknown) => {
  const url = outputs().FaultsUrl;
  if (!url) throw new Error('The local cloud runs without faults: start it with faults on (LOCAL_FAULTS=1; the integration setup does).');
  const res = await fetch(`${url}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`fault control ${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ services: Record<string, { plan: FaultPlan | null; passed: number; error: number; drop: number; slow: number }>; dynamodb: string }>;
};

export type Service = 'dynamodb' | 'ses' | 'cognito' | 'stripe' | 'bedrock' | 'zoom' | 'microsoft';

export const faults = {
  set: (service: Service, plan: FaultPlan) => control('PUT', `/faults/${service}`, plan),
  clear: () => control('DELETE', '/faults'),
  state: () => control('GET', '/faults'),
  database: (action: 'pause' | 'resume' | 'kill' | 'restart') => control('POST', `/dynamodb/${action}`),
  /** The database paused (then resumed) or killed (then restarted) for `ms`: when it came back (epoch ms). */
  async outage(how: 'pause' | 'kill', ms: number): Promise<number> {
    await faults.database(how);
    await sleep(ms);
    await faults.database(how === 'pause' ? 'resume' : 'restart');
    return Date.now();
  },
  /** Everything back to normal, the database running (after each test, whatever it left). */
  async recover() {
    await control('DELETE', '/faults');
    const { dynamodb } = await control('GET', '/faults');
    if (dynamodb === 'paused') await control('POST', '/dynamodb/resume');
    if (dynamodb === 'killed') await control('POST', '/dynamodb/restart');
  },
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Attempt {
  /** The HTTP status, or 0 when the connection failed or the caller gave up waiting. */
  status: number;
  /** When it was sent and how long it took (epoch ms, ms). */
  at: number;
  ms: number;
  retryAfter: string | null;
  code: string | null;
}

export interface Settled {
  status: number;
  body: unknown;
  attempts: Attempt[];
}

/** How long a caller waits for one answer: past the slowest function's timeout (30 s), so a hang shows as one. */
const CALLER_TIMEOUT_MS = 35_000;
const RETRYABLE = new Set([0, 429, 502, 503, 504]);
/** Worth the same request again: the platform or a dependency failed for a moment, or the route's throttle said wait. */
export const retryable = (attempt: Attempt): boolean => RETRYABLE.has(attempt.status);

/**
 * Sends one request until it settles (an answer `retry` says is not worth sending again), at most `maxAttempts` times.
 */
export const untilSettled = async (send: (signal: AbortSignal) => Promise<Response>, maxAttempts = 40, retry: (attempt: Attempt) => boolean = retryable): Promise<Settled> => {
  const attempts: Attempt[] = [];
  for (;;) {
    const started = performance.now();
    const at = Date.now();
    let attempt: Attempt;
    let body: unknown;
    try {
      const res = await send(AbortSignal.timeout(CALLER_TIMEOUT_MS));
      const text = await res.text();
      body = text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
      const code = (body as { error?: { code?: string } } | null)?.error?.code ?? null;
      attempt = { status: res.status, at, ms: performance.now() - started, retryAfter: res.headers.get('retry-after'), code };
    } catch {
      attempt = { status: 0, at, ms: performance.now() - started, retryAfter: null, code: null };
    }
    attempts.push(attempt);
    if (!retry(attempt) || attempts.length >= maxAttempts) return { status: attempt.status, body, attempts };
    await sleep(attempt.retryAfter ? Number(attempt.retryAfter) * 1000 : 500);
  }
};

/**
 * What every degraded answer must be: a 502/503 with the contract's error body (503 with Retry-After), never a 500 or
 * a cut connection from the platform itself, and never later than the route's function timeout (10 s for CRUD
 * routes, 30 s for heavy ones) plus the local gateway's own overhead.
 */
export const expectCleanFailures = (settled: Settled[], timeoutMs: number) => {
  const attempts = settled.flatMap((s) => s.attempts);
  for (const attempt of attempts) {
    expect(attempt.ms, 'no request hangs past its function timeout').toBeLessThan(timeoutMs + 1_500);
    if (attempt.status < 500) continue;
    expect([502, 503], `a degraded answer is 502/503, not ${attempt.status}`).toContain(attempt.status);
    expect(attempt.code, 'with the contract error body').toMatch(/^(SERVICE_UNAVAILABLE|UPSTREAM_FAILED)$/);
    if (attempt.status === 503) expect(attempt.retryAfter, '503 says when to retry').toMatch(/^\d+$/);
  }
  expect(attempts.filter((a) => a.status === 0), 'the platform never drops a connection').toEqual([]);
  return { attempts: attempts.length, degraded: attempts.filter((a) => a.status >= 500).length };
};

/** A POST of JSON to the gateway as `untilSettled` sends it: the same request each attempt, with that attempt's signal. */
export const post =
  (path: string, body: unknown, headers: Record<string, string> = {}) =>
  (signal: AbortSignal) =>
    fetch(`${outputs().ApiUrl}${path}`, { method: 'POST', signal, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** Signs in a person invited by email with the temporary password of their newest invitation (the one that works). */
export const signInFromInvitation = async (email: string): Promise<string> => {
  // Their newest mail that carries a password (a receipt may come after it).
  const passwords = (await mailsTo(email)).map((mail) => /Temporary password: (\S+)/.exec(mail.body.text ?? '')?.[1]).filter(Boolean);
  const temporaryPassword = passwords.at(-1);
  expect(temporaryPassword, `${email} was invited`).toBeDefined();
  return firstSignIn(email, temporaryPassword!, 'N3wPassword!');
};

/**
 * How long after the database came back (`returnedAt`, epoch ms) the first request succeeded: the platform recovering
 * by itself (a request sent before and still running counts when it ends after).
 */
export const recoveryMs = (settled: readonly Settled[], returnedAt: number): number | null => {
  const ends = settled.flatMap((s) => s.attempts).filter((a) => a.status >= 200 && a.status < 300 && a.at + a.ms >= returnedAt).map((a) => a.at + a.ms - returnedAt);
  return ends.length ? Math.max(0, Math.min(...ends)) : null;
};

/** Faults the proxies injected since `before` (the control's counts), per service. */
export const injectedSince = async (before: Awaited<ReturnType<typeof faults.state>>) => {
  const now = await faults.state();
  return Object.fromEntries(
    Object.entries(now.services).map(([name, n]) => {
      const b = before.services[name]!;
      return [name, { error: n.error - b.error, drop: n.drop - b.drop, slow: n.slow - b.slow }];
    }),
  );
};

export interface PathReport {
  path: string;
  injected: Record<string, { error: number; drop: number; slow: number }>;
  database: string;
  lost: number;
  doubled: number;
  recoveryMs: number | null;
}

/** For `npm run bench` (test/bench/faults.ts): a path's faults and effects, one JSON line to FAULT_REPORT when set. */
export const report = (entry: PathReport): void => {
  const file = process.env['FAULT_REPORT'];
  if (file) appendFileSync(file, `${JSON.stringify(entry)}\n`);
};

/** A checkout the caller starts (retried until it settles) and then pays on Stripe's page (the stand-in's own, not behind the platform's proxy). */
export const checkoutAndPay = async (start: (signal: AbortSignal) => Promise<Response>): Promise<Settled> => {
  const started = await untilSettled(start);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const paid = await fetch(`${(started.body as { url: string }).url}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  return started;
};

/** How long the stand-in's own retries of a failed delivery take at most (its waits of 0.5, 2 and 5 s), and a margin. */
const STAND_IN_RETRIES_MS = 20_000;

/**
 * Every event of `account` (a connected account's id, or `platform`) made since `sinceSeconds` delivered once more, as
 * Stripe keeps retrying for days; first the stand-in's own quick retries are left to end: none of those events is
 * still being delivered or waiting for a retry (its delivery no longer `pending`), or STAND_IN_RETRIES_MS passed.
 */
export const redeliverEvents = async (account: string, sinceSeconds = 0): Promise<void> => {
  const stripe = outputs().StripeApiUrl;
  type Listed = { event: { id: string; created: number }; delivery: { state: string } | null };
  const events = async () =>
    ((await (await fetch(`${stripe}/_stand-in/events?account=${account}`)).json()) as { data: Listed[] }).data.filter((e) => e.event.created >= sinceSeconds);
  const ends = Date.now() + STAND_IN_RETRIES_MS;
  let data = await events();
  while (data.some((e) => e.delivery?.state !== 'delivered' && e.delivery?.state !== 'failed') && Date.now() < ends) {
    await sleep(250);
    data = await events();
  }
  for (const { event } of data) await fetch(`${stripe}/_stand-in/events/${event.id}/redeliver`, { method: 'POST' });
};

/**
 * A creator selling one published course at `price` pence from a Stripe account ready to take payments (set up before
 * any fault): what the orders and refunds paths sell.
 */
export const sellingCreator = async (name: string, price: number) => {
  const creator = await accountWithRole('creator', name);
  const origin = outputs().WebUrl;
  const courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Knots', description: 'Tie them.' } })).body.id as string;
  await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Bowline', kind: 'text', body: '<p>Loop.</p>' } });
  await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published', priceAmount: price } });
  await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: { returnUrl: `${origin}/r`, refreshUrl: `${origin}/f` } });
  const accountId = (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: payoutKeys.account(creator.id) }))).Item!['accountId'] as string;
  await fetch(`${outputs().StripeApiUrl}/_stand-in/accounts/${accountId}/ready`, { method: 'POST' });
  await eventually(() => api('GET', '/api/creator/payouts', { token: creator.token }), (r) => r.body.status === 'enabled');
  return { creator, courseId, accountId, origin };
};

import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '#contracts/common.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { signUpActivity } from '#core/admin/platform-activity.ts';
import { weekStartOf } from '#core/admin/platform-figures.ts';
import { ACTIVITY_DAYS } from '#core/admin/platform-stats.ts';
import { activityPut, adminStatsKeys } from '#data/admin-stats.ts';
import { countersUpdate } from '#data/counters.ts';
import { documentClient, tableName } from '#data/table.ts';
import { userKeys } from '#data/users.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { signIn } from './api-latency.ts';
import { consumedCapacity, count, fetchOk, runPartAlone, seedingHow, writeAll } from './cloud-part.ts';
import { non2xxCodes } from './load.ts';
import { ms, percentile } from './stats.ts';
import { errorRow, row, shortMessage, type Row } from './table.ts';

/**
 * The admin's platform figures at a handful of users and at 100,000 (issue 11; QUALITY.md: admin stats cost the same
 * within 1.5x at 10 and at 100,000 users). GET /api/admin/stats is measured on the freshly seeded cloud, then the
 * table is grown to LARGE users and it is measured again. The users are written straight into the table as
 * functions/data/users.ts writes a profile (its keys and gsi1 by role), joined over the last two years, with the
 * activity line of every sign-up inside the last 30 days (as the sign-up transaction puts it), and the counters and
 * trend weeks moved by what was written, as the sign-up transactions would have moved them. No Cognito account and no
 * email reservation per user: the stats read neither. The two measurements are sequential (one platform per table),
 * so a shared machine's noise is not spread over both alike as in the CRM part: read the ratio with that in mind.
 * bench.ts adds `benchAdminStats`'s rows; run alone: `node --import tsx test/bench/admin-stats.ts` (BENCH_STATS_USERS
 * sets LARGE).
 */

const LARGE = Number(process.env['BENCH_STATS_USERS'] ?? 100_000);
const WARM_UP_REQUESTS = 20;
const REQUESTS = 200;
const RATIO_BUDGET = 1.5;
const DAY_MS = 24 * 60 * 60 * 1000;
const JOINED_OVER_DAYS = 730;

/** The bench's users by role, as a platform of mostly learners would have them. */
const roleOf = (n: number): Role => (n % 50 === 0 ? 'leader' : n % 10 === 0 ? 'creator' : 'learner');

interface StatsSample {
  times: number[];
  statusCodes: Record<string, number>;
  errors: number;
  usersTotal?: number;
  firstError?: string;
}

const statsRequest = async (gatewayUrl: string, token: string, into: StatsSample, measured: boolean): Promise<void> => {
  const started = performance.now();
  try {
    const res = await fetch(`${gatewayUrl}/api/admin/stats`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    const elapsed = performance.now() - started;
    if (!measured) return;
    into.statusCodes[res.status] = (into.statusCodes[res.status] ?? 0) + 1;
    if (res.status !== 200) return;
    into.times.push(elapsed);
    into.usersTotal = (JSON.parse(body) as { users: { total: number } }).users.total;
  } catch (error) {
    if (!measured) return;
    into.errors += 1;
    into.firstError ??= shortMessage((error as { cause?: unknown }).cause ?? error);
  }
};

const measure = async (gatewayUrl: string, token: string): Promise<StatsSample> => {
  const sample: StatsSample = { times: [], statusCodes: {}, errors: 0 };
  for (let i = 0; i < WARM_UP_REQUESTS + REQUESTS; i++) await statsRequest(gatewayUrl, token, sample, i >= WARM_UP_REQUESTS);
  return sample;
};

/** `users` new profiles joined over the last two years, the activity lines of the last 30 days, and what they count. */
const seedUsers = (users: number, now: number) => {
  const items: Record<string, unknown>[] = [];
  const counters: Record<string, number> = { usersTotal: users };
  const weeks = new Map<string, number>();
  const activitySince = now - ACTIVITY_DAYS * DAY_MS;
  for (let n = 0; n < users; n++) {
    const id = randomUUID();
    const role = roleOf(n);
    const createdAt = new Date(now - Math.floor(((n + 1) / users) * JOINED_OVER_DAYS * DAY_MS)).toISOString();
    const user = { id, email: `user-${n}-${id.slice(0, 8)}@bench.example.com`, role, createdAt };
    items.push({ ...userKeys.profile(id), ...userKeys.byRole(role, createdAt, id), type: 'User', ...user });
    if (Date.parse(createdAt) >= activitySince) items.push(activityPut(signUpActivity(user), id).Put.Item);
    counters[`users_${role}`] = (counters[`users_${role}`] ?? 0) + 1;
    const week = weekStartOf(createdAt);
    weeks.set(week, (weeks.get(week) ?? 0) + 1);
  }
  return { items, counters, weeks };
};

/** Moves the counters and the weeks' sign-ups by what the seeded users add (ADD, as the sign-up transactions do). */
const countSeeded = async (counters: Record<string, number>, weeks: Map<string, number>): Promise<void> => {
  const client = documentClient();
  for (const { Update } of countersUpdate(counters)) await client.send(new UpdateCommand(Update));
  for (const [week, signUps] of weeks) {
    await client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: adminStatsKeys.week(week).key(0),
        UpdateExpression: 'ADD signUps :n SET #type = :type, weekStart = :week',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':n': signUps, ':type': 'WeekCounters', ':week': week },
      }),
    );
  }
};

const statsRow = (s: StatsSample): Row =>
  row(`GET /api/admin/stats at ${count(s.usersTotal ?? 0)} users p50 / p95`, `${ms(percentile(s.times, 50))} / ${ms(percentile(s.times, 95))}`);

const failuresOf = (s: StatsSample): number => Object.entries(s.statusCodes).filter(([code]) => code !== '200').reduce((acc, [, n]) => acc + n, 0);

export const adminStatsSection = `Admin stats, GET /api/admin/stats: a fresh platform vs ${count(LARGE)} users (1 in flight, ${REQUESTS} each after ${WARM_UP_REQUESTS} warm-up, before and after seeding)`;

/** The rows of this part, on a running local cloud and a gateway with the throttles lifted. */
export const benchAdminStats = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  const rows: Row[] = [];
  let token: string;
  let small: StatsSample;
  let smallCapacity: Awaited<ReturnType<typeof consumedCapacity>>;
  const stats = () => fetchOk(`${gatewayUrl}/api/admin/stats`, token);
  try {
    applyFunctionEnv(cloud.env);
    const email = `bench-admin-${Date.now()}@example.com`;
    const password = 'BenchAdmin123';
    await createAccount(getDeps(), { email, role: 'admin', password });
    token = (await signIn(cloud, email, password)).token;
    log('GET /api/admin/stats on the fresh platform');
    small = await measure(gatewayUrl, token);
    smallCapacity = await consumedCapacity(stats);
  } catch (error) {
    return [errorRow('admin stats on a fresh platform', error)];
  }

  try {
    const seeded = seedUsers(Math.max(0, LARGE - (small.usersTotal ?? 0)), Date.now());
    log(`seeding ${count(seeded.counters['usersTotal'] ?? 0)} users: ${count(seeded.items.length)} items, ${seedingHow}`);
    const started = performance.now();
    await writeAll(cloud, seeded.items, (written) => log(`${count(written)} of ${count(seeded.items.length)} written`));
    await countSeeded(seeded.counters, seeded.weeks);
    const seconds = (performance.now() - started) / 1000;
    rows.push(
      row(
        `seeding ${count(seeded.counters['usersTotal'] ?? 0)} users (profiles + last 30 days' activity lines): ${seedingHow}`,
        `${seconds.toFixed(1)} s (${count(seeded.items.length)} items, ${count(Math.round(seeded.items.length / seconds))} items/s)`,
      ),
    );
  } catch (error) {
    return [...rows, errorRow(`seeding ${count(LARGE)} users`, error)];
  }

  try {
    log(`GET /api/admin/stats at ${count(LARGE)} users`);
    const large = await measure(gatewayUrl, token);
    const largeCapacity = await consumedCapacity(stats);
    const failed = failuresOf(small) + failuresOf(large);
    const errors = small.errors + large.errors;
    const why = small.firstError ?? large.firstError;
    const codes = [non2xxCodes(small.statusCodes), non2xxCodes(large.statusCodes)].filter(Boolean).join(' ');
    const ratio = percentile(large.times, 50) / percentile(small.times, 50);
    rows.push(
      statsRow(small),
      statsRow(large),
      row(
        'users counted at the large size; non-2xx / errors',
        `${count(large.usersTotal ?? 0)}; ${failed}${codes ? ` (${codes})` : ''} / ${errors}${why ? ` (first: ${why})` : ''}`,
        `>= ${count(LARGE)}; 0 / 0`,
        (large.usersTotal ?? 0) >= LARGE && failed === 0 && errors === 0,
      ),
      row(`ratio p50 at ${count(LARGE)} / p50 fresh`, `${ratio.toFixed(2)}x`, `<= ${RATIO_BUDGET}x`, ratio <= RATIO_BUDGET),
      row(
        'read capacity of one stats read, fresh / large (GetItem + 2 Queries)',
        smallCapacity && largeCapacity
          ? `${smallCapacity.units} / ${largeCapacity.units} RCU (${smallCapacity.calls} / ${largeCapacity.calls} DynamoDB calls)`
          : 'not reported by DynamoDB Local',
        smallCapacity && largeCapacity ? `${smallCapacity.calls} calls at both` : undefined,
        smallCapacity && largeCapacity ? smallCapacity.calls === largeCapacity.calls : undefined,
      ),
    );
  } catch (error) {
    rows.push(errorRow(`admin stats at ${count(LARGE)} users`, error));
  }
  return rows;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPartAlone('admin-stats', adminStatsSection, benchAdminStats);

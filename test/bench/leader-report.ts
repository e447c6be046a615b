import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { REPORT_PAGE_SIZE } from '#contracts/licenses.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import type { StoredLicense } from '#core/ports.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { dynamoLicenses, licenseKeys } from '#data/licenses.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { signIn } from './api-latency.ts';
import { compareFirstPages } from './first-pages.ts';
import { ms, percentile } from './stats.ts';
import { consumedCapacity, count, fetchOk, runPartAlone, seedingHow, writeAll } from './cloud-part.ts';
import { errorRow, row, type Row } from './table.ts';

/**
 * The leader report's first page for a 10-member and a 5,000-member licence (issue 14: within 1.5x), and the CSV
 * export of the 5,000. A creator and a course of the bench's own (POST /api/courses), two leaders (real accounts,
 * signed in), one licence each written as functions/data/licenses.ts writes one, and the seats and their enrolments
 * written straight into the table in the shapes `assign` and `enroll` write (no Cognito account per member: the report
 * reads only the table); a third of the members have progress, a tenth completed. Then GET /api/leader/reports for each
 * leader, one request in flight, alternating, and the CSV of the large one. bench.ts adds `benchLeaderReport`'s rows;
 * run alone: `node --import tsx test/bench/leader-report.ts`.
 */

const SMALL = 10;
const LARGE = 5_000;
const WARM_UP_REQUESTS = 20;
const REQUESTS = 200;
const CSV_RUNS = 10;
const RATIO_BUDGET = 1.5;
/** What a first page of 5,000 holds. */
const PAGE_SIZE = REPORT_PAGE_SIZE;
const DAY_MS = 24 * 60 * 60 * 1000;

interface BenchLeader {
  licenseId: string;
  token: string;
}

/** A leader of the bench's own, signed in, with a licence of `seats` seats on the course. */
const setUpLeader = async (cloud: LocalCloud, course: { id: string; title: string; creatorId: string }, seats: number): Promise<BenchLeader> => {
  const email = `bench-leader-${seats}-${Date.now()}@example.com`;
  const password = 'BenchLeader123';
  const leader = await createAccount(getDeps(), { email, role: 'leader', password });
  const { token } = await signIn(cloud, email, password);
  const license: StoredLicense = {
    id: `lic_bench_${seats}_${randomUUID()}`,
    courseId: course.id,
    courseTitle: course.title,
    creatorId: course.creatorId,
    leaderId: leader.id,
    leaderEmail: email,
    seatsTotal: seats,
    seatsUsed: seats,
    expiresAt: null,
    status: 'active',
    source: 'granted',
    orderId: null,
    createdAt: new Date().toISOString(),
  };
  await dynamoLicenses().create(license);
  return { licenseId: license.id, token };
};

/** Each member's seat and enrolment, as `assign` and `enroll` (and `completeLesson`) leave them. */
const seedItems = (licenseId: string, course: { id: string; title: string; creatorId: string }, members: number, now: number): Record<string, unknown>[] => {
  const items: Record<string, unknown>[] = [];
  for (let n = 0; n < members; n++) {
    const learnerId = randomUUID();
    const email = `member-${String(n).padStart(5, '0')}-${learnerId.slice(0, 6)}@bench.example.com`;
    const enrolledAt = new Date(now - Math.floor(((n + 1) / members) * 90 * DAY_MS)).toISOString();
    const progress = n % 10 === 0 ? 100 : n % 3 === 0 ? 50 : 0;
    items.push({ ...licenseKeys.seat(licenseId, email), type: 'Seat', licenseId, email, learnerId, status: 'active', assignedAt: enrolledAt });
    items.push({
      ...enrollmentKeys.enrollment(course.id, learnerId),
      ...enrollmentKeys.byCreator(course.creatorId, enrolledAt, course.id, learnerId),
      ...enrollmentKeys.byLearner(learnerId, course.id),
      type: 'Enrollment',
      courseId: course.id,
      learnerId,
      creatorId: course.creatorId,
      learnerEmail: email,
      learnerJoinedAt: enrolledAt,
      courseTitle: course.title,
      status: 'active',
      enrolledAt,
      completedLessonIds: progress > 0 ? ['lesson-1'] : [],
      progress,
      lastActivity: progress > 0 ? new Date(Date.parse(enrolledAt) + DAY_MS).toISOString() : enrolledAt,
      completedAt: progress === 100 ? new Date(Date.parse(enrolledAt) + DAY_MS).toISOString() : null,
      licenseId,
    });
  }
  return items;
};

const reportUrl = (gatewayUrl: string, leader: BenchLeader, format: 'json' | 'csv' = 'json') =>
  `${gatewayUrl}/api/leader/reports?licenseId=${encodeURIComponent(leader.licenseId)}${format === 'csv' ? '&format=csv' : ''}`;

export const leaderReportSection = `Leader report, GET /api/leader/reports: a ${count(SMALL)}- vs a ${count(LARGE)}-member licence (1 in flight, ${REQUESTS} each after ${WARM_UP_REQUESTS} warm-up, alternating), and the CSV of ${count(LARGE)}`;

/** The rows of this part, on a running local cloud and a gateway with the throttles lifted. */
export const benchLeaderReport = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  const rows: Row[] = [];
  let small: BenchLeader;
  let large: BenchLeader;
  try {
    applyFunctionEnv(cloud.env);
    log('creating a bench creator, a course (POST /api/courses) and two leaders with a licence each');
    const creatorEmail = `bench-licensor-${Date.now()}@example.com`;
    const creator = await createAccount(getDeps(), { email: creatorEmail, role: 'creator', password: 'BenchCreator123' });
    const { token } = await signIn(cloud, creatorEmail, 'BenchCreator123');
    const title = 'Bench team course';
    const res = await fetch(`${gatewayUrl}/api/courses`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title }) });
    if (res.status !== 201) throw new Error(`POST /api/courses answered ${res.status}: ${await res.text()}`);
    const course = { id: ((await res.json()) as { id: string }).id, title, creatorId: creator.id };
    [small, large] = [await setUpLeader(cloud, course, SMALL), await setUpLeader(cloud, course, LARGE)];
    const now = Date.now();
    const items = [...seedItems(small.licenseId, course, SMALL, now), ...seedItems(large.licenseId, course, LARGE, now)];
    log(`seeding ${count(SMALL + LARGE)} seats and their enrolments: ${count(items.length)} items, ${seedingHow}`);
    const started = performance.now();
    await writeAll(cloud, items);
    const seconds = (performance.now() - started) / 1000;
    rows.push(row(`seeding ${count(SMALL)} + ${count(LARGE)} seats and enrolments: ${seedingHow}`, `${seconds.toFixed(1)} s (${count(items.length)} items)`));
  } catch (error) {
    return [...rows, errorRow('leader report bench: leaders, licences and members', error)];
  }

  try {
    log(`GET /api/leader/reports, ${count(SMALL)} and ${count(LARGE)} members alternating: ${WARM_UP_REQUESTS} warm-up, ${REQUESTS} measured each`);
    const target = (leader: BenchLeader, items: number) => ({ url: reportUrl(gatewayUrl, leader), token: leader.token, items });
    rows.push(
      ...(await compareFirstPages({
        small: target(small, SMALL),
        large: target(large, LARGE),
        pageSize: PAGE_SIZE,
        noun: 'members',
        warmUp: WARM_UP_REQUESTS,
        requests: REQUESTS,
        budget: RATIO_BUDGET,
      })),
    );
  } catch (error) {
    rows.push(errorRow('GET /api/leader/reports first page', error));
  }

  try {
    log(`GET /api/leader/reports?format=csv of ${count(LARGE)} members, ${CSV_RUNS} times`);
    const times: number[] = [];
    let lines = 0;
    for (let i = 0; i < CSV_RUNS; i++) {
      const started = performance.now();
      const res = await fetch(reportUrl(gatewayUrl, large, 'csv'), { headers: { authorization: `Bearer ${large.token}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`the CSV answered ${res.status}: ${text.slice(0, 200)}`);
      times.push(performance.now() - started);
      lines = text.trim().split('\n').length - 1;
    }
    rows.push(
      row(`CSV export of ${count(LARGE)} members p50 / max (${CSV_RUNS} runs)`, `${ms(percentile(times, 50))} / ${ms(Math.max(...times))}`),
      row('CSV rows', count(lines), count(LARGE), lines === LARGE),
    );
  } catch (error) {
    rows.push(errorRow('CSV export', error));
  }

  try {
    const pageOf = (leader: BenchLeader) => () => fetchOk(reportUrl(gatewayUrl, leader), leader.token);
    const [cs, cl] = [await consumedCapacity(pageOf(small)), await consumedCapacity(pageOf(large))];
    rows.push(
      row(
        `read capacity of one first page at ${count(SMALL)} / ${count(LARGE)} (licence, seats Query, BatchGetItem of enrolments)`,
        cs && cl ? `${cs.units} / ${cl.units} RCU (${cs.calls} / ${cl.calls} DynamoDB calls)` : 'not reported by DynamoDB Local',
      ),
    );
  } catch (error) {
    rows.push(errorRow('read capacity of a first page', error));
  }
  return rows;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPartAlone('leader-report', leaderReportSection, benchLeaderReport);

import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createAccount } from '#core/accounts/create-account.ts';
import { crmKeys } from '#data/crm.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { signIn } from './api-latency.ts';
import { compareFirstPages } from './first-pages.ts';
import { consumedCapacity, count, fetchOk, runPartAlone, seedingHow, writeAll } from './cloud-part.ts';
import { errorRow, row, type Row } from './table.ts';

/**
 * The CRM's first page at 10 and at 10,000 enrolled learners (issue 10; QUALITY.md: every list a person pages
 * through costs the same within 1.5x at 10 and at 10,000 items). Two creators of the bench's own, each with courses
 * made through POST /api/courses; their enrolments are written straight into the table (see `writeAll`), shaped
 * as functions/data/enrollments.ts's `enroll` writes a new one (its keys, gsi1 for the CRM and gsi2 for the
 * learner's list), plus a note on every NOTE_EVERY-th learner as the CRM saves one. No Cognito account per learner: the CRM page reads only the table. The creator counters
 * and the courses' enrolledCount are not moved: the page does not read them.
 * Then GET /api/crm/learners (no cursor) for each creator, one request in flight, the two alternating so the noise
 * of a shared machine falls on both alike. bench.ts adds `benchCrm`'s rows; run alone:
 * `node --import tsx test/bench/crm.ts`.
 */

const SMALL = 10;
const LARGE = 10_000;
const COURSES_OF_LARGE = 4;
const WARM_UP_REQUESTS = 20;
const REQUESTS = 200;
const RATIO_BUDGET = 1.5;
/** The CRM's page size (functions/core/crm/learners.ts CRM_PAGE_SIZE): what a first page of 10,000 holds. */
const PAGE_SIZE = 25;
const NOTE_EVERY = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

interface BenchCreator {
  userId: string;
  token: string;
}

/** A creator of the bench's own with `courses` draft courses made through the product's route. */
const setUpCreator = async (cloud: LocalCloud, gatewayUrl: string, learners: number, courses: number): Promise<BenchCreator & { courses: { id: string; title: string }[] }> => {
  const email = `bench-crm-${learners}-${Date.now()}@example.com`;
  const password = 'BenchCreator123';
  const user = await createAccount(getDeps(), { email, role: 'creator', password });
  const { token } = await signIn(cloud, email, password);
  const made: { id: string; title: string }[] = [];
  for (let i = 1; i <= courses; i++) {
    const title = `Bench course ${i} of ${count(learners)} learners`;
    const res = await fetch(`${gatewayUrl}/api/courses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    if (res.status !== 201) throw new Error(`POST /api/courses answered ${res.status}: ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    made.push({ id, title });
  }
  return { userId: user.id, token, courses: made };
};

/**
 * The items of `learners` enrolments spread over the creator's courses, enrolled over the last year (so the CRM's
 * newest-first index has an order to keep), each as `enroll` writes a new one; and a note on every NOTE_EVERY-th.
 */
const seedItems = (creatorId: string, courses: { id: string; title: string }[], learners: number, now: number): Record<string, unknown>[] => {
  const items: Record<string, unknown>[] = [];
  for (let n = 0; n < learners; n++) {
    const course = courses[n % courses.length]!;
    const learnerId = randomUUID();
    const enrolledAt = new Date(now - Math.floor(((n + 1) / learners) * 365 * DAY_MS)).toISOString();
    items.push({
      ...enrollmentKeys.enrollment(course.id, learnerId),
      ...enrollmentKeys.byCreator(creatorId, enrolledAt, course.id, learnerId),
      ...enrollmentKeys.byLearner(learnerId, course.id),
      type: 'Enrollment',
      courseId: course.id,
      learnerId,
      creatorId,
      learnerEmail: `learner-${n}-${learnerId.slice(0, 8)}@bench.example.com`,
      learnerJoinedAt: new Date(Date.parse(enrolledAt) - DAY_MS).toISOString(),
      courseTitle: course.title,
      status: 'active',
      enrolledAt,
      completedLessonIds: [],
      progress: 0,
      lastActivity: enrolledAt,
      completedAt: null,
    });
    if (n % NOTE_EVERY === 0) {
      items.push({ ...crmKeys.note(creatorId, learnerId), type: 'LearnerNote', creatorId, learnerId, notes: `Bench note for learner ${n}.`, updatedAt: new Date(now).toISOString() });
    }
  }
  return items;
};

export const crmSection = `CRM first page, GET /api/crm/learners: ${count(SMALL)} vs ${count(LARGE)} enrolled learners (1 in flight, ${REQUESTS} each after ${WARM_UP_REQUESTS} warm-up, alternating)`;

/** The rows of this part, on a running local cloud and a gateway with the throttles lifted. */
export const benchCrm = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  const rows: Row[] = [];
  let small: BenchCreator;
  let large: BenchCreator;
  try {
    applyFunctionEnv(cloud.env);
    log('creating two bench creators and their courses (POST /api/courses)');
    const [a, b] = [await setUpCreator(cloud, gatewayUrl, SMALL, 1), await setUpCreator(cloud, gatewayUrl, LARGE, COURSES_OF_LARGE)];
    small = a;
    large = b;
    const now = Date.now();
    const items = [...seedItems(a.userId, a.courses, SMALL, now), ...seedItems(b.userId, b.courses, LARGE, now)];
    log(`seeding ${count(SMALL + LARGE)} enrolments and their notes: ${count(items.length)} items, ${seedingHow}`);
    const started = performance.now();
    await writeAll(cloud, items);
    const seconds = (performance.now() - started) / 1000;
    rows.push(
      row(
        `seeding ${count(SMALL)} + ${count(LARGE)} enrolments (+ a note every ${NOTE_EVERY}th): ${seedingHow}`,
        `${seconds.toFixed(1)} s (${count(items.length)} items, ${count(Math.round(items.length / seconds))} items/s)`,
      ),
    );
  } catch (error) {
    return [...rows, errorRow('CRM bench creators and their enrolments', error)];
  }

  try {
    log(`GET /api/crm/learners, ${count(SMALL)} and ${count(LARGE)} learners alternating: ${WARM_UP_REQUESTS} warm-up, ${REQUESTS} measured each`);
    const target = (creator: BenchCreator, items: number) => ({ url: `${gatewayUrl}/api/crm/learners`, token: creator.token, items });
    rows.push(
      ...(await compareFirstPages({
        small: target(small, SMALL),
        large: target(large, LARGE),
        pageSize: PAGE_SIZE,
        noun: 'learners',
        warmUp: WARM_UP_REQUESTS,
        requests: REQUESTS,
        budget: RATIO_BUDGET,
      })),
    );
  } catch (error) {
    rows.push(errorRow('GET /api/crm/learners first page', error));
  }

  try {
    const firstPageOf = (c: BenchCreator) => () => fetchOk(`${gatewayUrl}/api/crm/learners`, c.token);
    const [cs, cl] = [await consumedCapacity(firstPageOf(small)), await consumedCapacity(firstPageOf(large))];
    rows.push(
      row(
        `read capacity of one first page at ${count(SMALL)} / ${count(LARGE)} (Query + BatchGetItem of notes)`,
        cs && cl ? `${cs.units} / ${cl.units} RCU (${cs.calls} / ${cl.calls} DynamoDB calls)` : 'not reported by DynamoDB Local',
      ),
    );
  } catch (error) {
    rows.push(errorRow('read capacity of a first page', error));
  }
  rows.push(...(await benchDemoSeed()));
  return rows;
};

/** The demo catalogue's seeding (lib/local/demo-catalogue.ts: `npm start` and the integration setup wait for it). */
const DEMO_SEED_BUDGET_S = 5;

/**
 * The demo catalogue seeded for a fresh creator of the bench's own, then again (the second run finds everything and
 * writes nothing). Its time budget was once test/integration/crm.test.ts's, where it measured the machine's load.
 */
const benchDemoSeed = async (): Promise<Row[]> => {
  try {
    const email = `bench-demo-seed-${Date.now()}@example.com`;
    await createAccount(getDeps(), { email, role: 'creator', password: 'BenchCreator123' });
    const { seedDemoCatalogue } = await import('#lib/local/demo-catalogue.ts');
    const timed = async () => {
      const started = performance.now();
      await seedDemoCatalogue({ creatorEmail: email, log: () => {} });
      return (performance.now() - started) / 1000;
    };
    const [fresh, again] = [await timed(), await timed()];
    return [
      row('demo catalogue seeded for a fresh creator', `${fresh.toFixed(1)} s`, `< ${DEMO_SEED_BUDGET_S} s`, fresh < DEMO_SEED_BUDGET_S),
      row('demo catalogue seeded again (idempotent: nothing new)', `${again.toFixed(1)} s`, `< ${DEMO_SEED_BUDGET_S} s`, again < DEMO_SEED_BUDGET_S),
    ];
  } catch (error) {
    return [errorRow('demo catalogue seeding', error)];
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPartAlone('crm', crmSection, benchCrm);

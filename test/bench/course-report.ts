import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#core/accounts/create-account.ts';
import type { ReportMoves } from '#core/ports.ts';
import { questionKey } from '#core/reports/course-report.ts';
import { billingKeys } from '#data/billing.ts';
import { enrolledCounter } from '#data/courses.ts';
import { figureDeltas, reportKeys } from '#data/course-reports.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { shardOf } from '#data/sharded-counters.ts';
import { documentClient } from '#data/table.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { signIn } from './api-latency.ts';
import { count, seedingHow, writeAll } from './cloud-part.ts';
import { ms, percentile } from './stats.ts';
import { errorRow, row, type Row } from './table.ts';

/**
 * The course report (issue 29 point 3: flat within 1.5x from 10 to 10,000 learners). A Pro creator of the bench's own
 * (its subscription as the billing module stores one), two courses made through the API (four text lessons and a quiz
 * of five questions each), one with 10 learners and one with 10,000: their enrolments (with the report's marks) and the
 * report's figure shards and enrolled-count shards written straight into the table in the shapes the progress writes
 * leave them (each learner's moves ADDed on their shard: data/course-reports.ts figureDeltas). Then GET
 * /api/creator/reports/courses/{id} for each, one request in flight, alternating. bench.ts adds `benchCourseReport`'s
 * rows; run alone: `node --import tsx test/bench/course-report.ts`.
 */

const SMALL = 10;
const LARGE = 10_000;
const WARM_UP_REQUESTS = 20;
const REQUESTS = 200;
const RATIO_BUDGET = 1.5;
const TEXT_LESSONS = 4;
const QUESTIONS = 5;

interface BenchCourse {
  id: string;
  lessonIds: string[];
  quizId: string;
  learners: number;
}

const post = async (gatewayUrl: string, token: string, path: string, body: unknown, method = 'POST'): Promise<{ id: string }> => {
  const res = await fetch(`${gatewayUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string };
};

const quiz = {
  passPercent: 60,
  questions: Array.from({ length: QUESTIONS }, (_, q) => ({ prompt: `Question ${q + 1}?`, type: 'single', options: ['Yes', 'No'], correct: [0] })),
};

const makeCourse = async (gatewayUrl: string, token: string, learners: number): Promise<BenchCourse> => {
  const { id } = await post(gatewayUrl, token, '/api/courses', { title: `Bench report course (${learners})` });
  const lessonIds: string[] = [];
  for (let i = 0; i < TEXT_LESSONS; i++) lessonIds.push((await post(gatewayUrl, token, `/api/courses/${id}/lessons`, { title: `Lesson ${i + 1}`, kind: 'text', body: '<p>Read.</p>' })).id);
  const quizId = (await post(gatewayUrl, token, `/api/courses/${id}/lessons`, { title: 'Check', kind: 'quiz', quiz })).id;
  await post(gatewayUrl, token, `/api/courses/${id}`, { status: 'published' }, 'PATCH');
  return { id, lessonIds, quizId, learners };
};

/**
 * The course's enrolments and the figure and enrolled-count shards its learners' progress leaves: learner n gets
 * through n % 7 of the five lessons (a funnel with drop-off), the quiz attempted by those who reach it.
 */
const seedItems = (course: BenchCourse, creatorId: string, now: number): Record<string, unknown>[] => {
  const items: Record<string, unknown>[] = [];
  const shards = new Map<number, Record<string, number>>();
  const enrolled = new Map<number, number>();
  const lessons = [...course.lessonIds, course.quizId];
  const add = (shard: number, deltas: Record<string, number>) => {
    const sums = shards.get(shard) ?? {};
    for (const [name, n] of Object.entries(deltas)) sums[name] = (sums[name] ?? 0) + n;
    shards.set(shard, sums);
  };
  for (let n = 0; n < course.learners; n++) {
    const learnerId = randomUUID();
    const at = new Date(now - (n % 90) * 86_400_000).toISOString();
    const reached = lessons.slice(0, n % 7);
    const completed = reached.slice(0, Math.max(0, reached.length - (n % 2)));
    const shard = shardOf(learnerId);
    enrolled.set(shardOf(learnerId), (enrolled.get(shardOf(learnerId)) ?? 0) + 1);
    const moves: ReportMoves[] = [
      ...(reached.length > 0 ? [{ startedAt: at }] : []),
      ...reached.map((lessonId) => ({ reachedLessonId: lessonId })),
      ...completed.map((lessonId) => ({ completedLessonId: lessonId })),
      ...(completed.length === lessons.length ? [{ courseCompleted: true }] : []),
      ...(reached.includes(course.quizId)
        ? [{ quiz: { lessonId: course.quizId, passed: completed.includes(course.quizId), questions: quiz.questions.map((q, i) => ({ key: questionKey(q.prompt), correct: (n + i) % 3 !== 0 })) } }]
        : []),
    ];
    for (const move of moves) add(shard, figureDeltas(move));
    items.push({
      ...enrollmentKeys.enrollment(course.id, learnerId),
      ...enrollmentKeys.byCreator(creatorId, at, course.id, learnerId),
      ...enrollmentKeys.byLearner(learnerId, course.id),
      type: 'Enrollment',
      courseId: course.id,
      learnerId,
      creatorId,
      learnerEmail: `learner-${n}-${learnerId.slice(0, 6)}@bench.example.com`,
      learnerJoinedAt: at,
      courseTitle: `Bench report course (${course.learners})`,
      status: 'active',
      enrolledAt: at,
      completedLessonIds: completed,
      progress: Math.round((completed.length / lessons.length) * 100),
      lastActivity: at,
      completedAt: completed.length === lessons.length ? at : null,
      ...(reached.length > 0 ? { startedAt: at, reachedLessonIds: reached } : {}),
    });
  }
  for (const [shard, sums] of shards) items.push({ ...reportKeys.figures(course.id).key(shard), type: 'CourseReportFigures', ...sums });
  for (const [shard, n] of enrolled) items.push({ ...enrolledCounter(course.id).key(shard), type: 'EnrolledCount', enrolled: n });
  return items;
};

const reportUrl = (gatewayUrl: string, course: BenchCourse) => `${gatewayUrl}/api/creator/reports/courses/${course.id}`;

export const courseReportSection = `Course report, GET /api/creator/reports/courses/{id}: ${count(SMALL)} vs ${count(LARGE)} learners (1 in flight, ${REQUESTS} each after ${WARM_UP_REQUESTS} warm-up, alternating)`;

/** The rows of this part, on a running local cloud and a gateway with the throttles lifted. */
export const benchCourseReport = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  const rows: Row[] = [];
  let token: string;
  let small: BenchCourse;
  let large: BenchCourse;
  try {
    applyFunctionEnv(cloud.env);
    log('creating a Pro bench creator and two courses through the API');
    const email = `bench-reports-${Date.now()}@example.com`;
    const creator = await createAccount(getDeps(), { email, role: 'creator', password: 'BenchCreator123' });
    const now = new Date().toISOString();
    await documentClient().send(
      new PutCommand({
        TableName: cloud.outputs.TableName,
        Item: {
          ...billingKeys.subscription(creator.id),
          type: 'Subscription',
          userId: creator.id,
          subscriptionId: `sub_bench_${creator.id}`,
          customerId: `cus_bench_${creator.id}`,
          status: 'active',
          tier: 'pro',
          trialEnd: null,
          currentPeriodEnd: null,
          cancelAtPeriodEnd: false,
          lastEventAt: 0,
          lastEventRank: 0,
          updatedAt: now,
          hasSubscribed: true,
        },
      }),
    );
    ({ token } = await signIn(cloud, email, 'BenchCreator123'));
    [small, large] = [await makeCourse(gatewayUrl, token, SMALL), await makeCourse(gatewayUrl, token, LARGE)];
    const items = [...seedItems(small, creator.id, Date.now()), ...seedItems(large, creator.id, Date.now())];
    log(`seeding ${count(SMALL + LARGE)} enrolments and the report's shards: ${count(items.length)} items, ${seedingHow}`);
    const started = performance.now();
    await writeAll(cloud, items);
    rows.push(row(`seeding ${count(SMALL)} + ${count(LARGE)} enrolments and figure shards: ${seedingHow}`, `${((performance.now() - started) / 1000).toFixed(1)} s (${count(items.length)} items)`));
  } catch (error) {
    return [...rows, errorRow('course report bench: creator, courses and learners', error)];
  }

  try {
    log(`GET the course report at ${count(SMALL)} and ${count(LARGE)} learners alternating: ${WARM_UP_REQUESTS} warm-up, ${REQUESTS} measured each`);
    const times = new Map<BenchCourse, number[]>([
      [small, []],
      [large, []],
    ]);
    const enrolledSeen = new Map<BenchCourse, number>();
    let failures = 0;
    for (let i = 0; i < WARM_UP_REQUESTS + REQUESTS; i++) {
      for (const course of i % 2 === 0 ? [small, large] : [large, small]) {
        const started = performance.now();
        const res = await fetch(reportUrl(gatewayUrl, course), { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { enrolled?: number };
        if (res.status !== 200) failures++;
        else enrolledSeen.set(course, body.enrolled ?? -1);
        if (i >= WARM_UP_REQUESTS) times.get(course)!.push(performance.now() - started);
      }
    }
    const [s, l] = [times.get(small)!, times.get(large)!];
    const ratio = percentile(l, 50) / percentile(s, 50);
    rows.push(
      row(`report at ${count(SMALL)} learners p50 / p95`, `${ms(percentile(s, 50))} / ${ms(percentile(s, 95))}`),
      row(`report at ${count(LARGE)} learners p50 / p95`, `${ms(percentile(l, 50))} / ${ms(percentile(l, 95))}`),
      row(
        'enrolled as reported at each size; non-200',
        `${count(enrolledSeen.get(small) ?? 0)} / ${count(enrolledSeen.get(large) ?? 0)}; ${failures}`,
        `${count(SMALL)} / ${count(LARGE)}; 0`,
        enrolledSeen.get(small) === SMALL && enrolledSeen.get(large) === LARGE && failures === 0,
      ),
      row(`ratio p50 at ${count(LARGE)} / p50 at ${count(SMALL)}`, `${ratio.toFixed(2)}x`, `<= ${RATIO_BUDGET}x`, ratio <= RATIO_BUDGET),
    );
  } catch (error) {
    rows.push(errorRow('GET /api/creator/reports/courses/{id}', error));
  }
  return rows;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runPartAlone } = await import('./cloud-part.ts');
  await runPartAlone('course-report', courseReportSection, benchCourseReport);
}

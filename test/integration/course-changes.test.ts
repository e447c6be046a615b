import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CrmLearner } from '#contracts/courses.ts';
import { type CourseChange, courseChangedWork, type CourseChangeJobs, type CourseChangeStore, courseChangeSlice } from '#core/courses/changes.ts';
import { deleteCourse, updateCourse } from '#core/courses/courses.ts';
import { runSlice, SLICE_MARGIN_MS } from '#core/jobs/slices.ts';
import { readCreatorStats } from '#data/courses.ts';
import { batchWrite, documentClient, tableName } from '#data/table.ts';
import { clock, courseRepository } from '#functions/composition/deps.ts';
import { courseChangeStore, courseFiles } from '#functions/jobs/course-changed.ts';
import { memorySliceQueue } from '#test/functions/fakes/slice-queue.ts';
import { accountWithRole, api, counted, streamsCaughtUp, useLocalCloudEnv } from './support.ts';
import { dripReplanDeps } from '#functions/composition/deps-drip.ts';

/**
 * Course-wide changes leave the request (issue 28 point 2): a course with 2,000 enrolments renamed and deleted through
 * the routes, which answer at once, and the 'course-changed' run (the SQS stand-in and the local event source) carries
 * the change; then runs driven here slice by slice on the memory queue, one slice killed midway: nothing lost or
 * doubled, and an overtaken rename never undoes a newer one.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;

const ok = <T>(res: { status: number; body: T }, status = 200): T => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};

/** Through the routes: the run goes through the SQS stand-in and the local event source, as in the cloud. */
const MANY = 2_000;
/** Killed midway: the run's slices driven here, one of them killed (a smaller course: the same paths, less time). */
const KILLED = 600;
const COMPLETED_EVERY = 10;

/** The course routes' job starts, kept on a memory queue: `drain` runs them with the job's own work. */
const jobsOnMemoryQueue = () => {
  const { queue, drain } = memorySliceQueue();
  const jobs: CourseChangeJobs = { start: (change: CourseChange) => queue.send([courseChangeSlice(change)]) };
  /**
   * Runs every slice, each given `sliceMs` of working time; `killAt` makes one store call throw once (a slice killed
   * midway: SQS delivers it again, here at once). Answers the summed counts, the slices run and the kills.
   */
  const run = async (opts: { sliceMs: number; killAt?: number }) => {
    const counts: Record<string, number> = {};
    const real = courseChangeStore();
    let calls = 0;
    let kills = 0;
    /** Writes that changed an item, whichever slice made them (a killed slice's too): doubled ones would show here. */
    let writes = 0;
    const slices = await drain(async (slice) => {
      // A slice's own store: once it is killed, any of its calls still going fails (its process is gone).
      const slot = { dead: false };
      const call =
        <A extends unknown[], R>(f: (...args: A) => Promise<R>, counted: (r: R) => number) =>
        async (...args: A): Promise<R> => {
          if (slot.dead) throw new Error('killed');
          if (opts.killAt !== undefined && ++calls === opts.killAt) {
            kills++;
            slot.dead = true;
            throw new Error('killed');
          }
          const result = await f(...args);
          writes += counted(result);
          return result;
        };
      const store: CourseChangeStore = {
        ...real,
        retitleEnrollment: call(real.retitleEnrollment, (done) => (done ? 1 : 0)),
        removeDeletedCourseBatch: call(real.removeDeletedCourseBatch, (batch) => (typeof batch === 'object' ? batch.enrollments : 0)),
      };
      const ends = Date.now() + SLICE_MARGIN_MS + opts.sliceMs;
      try {
        const result = await runSlice({ queue, remainingMs: () => ends - Date.now() }, slice, courseChangedWork(store, courseFiles(), dripReplanDeps()));
        for (const [key, value] of Object.entries(result.counts)) counts[key] = (counts[key] ?? 0) + value;
      } catch (error) {
        if ((error as Error).message !== 'killed') throw error;
        // Delivered again after the visibility timeout (here at once): the same slice, past the queue's deduplication.
        await new Promise((resolve) => setTimeout(resolve, 50));
        queue.queued.push(slice);
      }
    });
    return { counts, slices, kills, writes };
  };
  return { jobs, run, queue };
};

/** 2,000 enrolments written straight into the course's partition (as the enrolment transactions leave them), counted. */
const seedEnrollments = async (creatorId: string, courseId: string, title: string, count = MANY) => {
  const at = '2026-01-01T00:00:00.000Z';
  const items = Array.from({ length: count }, (_, i) => {
    const learnerId = `cc-${courseId}-${String(i).padStart(5, '0')}`;
    const completed = i % COMPLETED_EVERY === 0;
    return {
      pk: `COURSE#${courseId}`,
      sk: `ENROLL#${learnerId}`,
      gsi1pk: `CREATOR#${creatorId}#LEARNERS`,
      gsi1sk: `${at}#${courseId}#${learnerId}`,
      gsi2pk: `LEARNER#${learnerId}#COURSES`,
      gsi2sk: courseId,
      type: 'Enrollment',
      courseId,
      learnerId,
      creatorId,
      learnerEmail: `${learnerId}@example.com`,
      learnerJoinedAt: at,
      courseTitle: title,
      courseTitleAt: at,
      status: 'active',
      enrolledAt: at,
      completedLessonIds: [],
      progress: completed ? 100 : 0,
      lastActivity: at,
      completedAt: completed ? at : null,
    };
  });
  await batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
  // The creator's and the platform's figures and the course's count follow from the table's stream (decision 0040),
  // as for any enrolment: wait until they have.
  await streamsCaughtUp();
};

/** The creator's figures once the stream aggregator has counted every enrolment written so far (decision 0040). */
const settled = (creatorId: string) => counted(() => stats(creatorId));

const partition = async (courseId: string, prefix = '') => {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        ...(prefix
          ? { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':prefix': prefix } }
          : { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `COURSE#${courseId}` } }),
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
};

/** The creator's figures, summed over their shards (data/sharded-counters.ts). */
const stats = async (creatorId: string) => {
  const figures = await readCreatorStats(creatorId, { consistent: true });
  return { courses: figures['courses'] ?? 0, students: figures['students'] ?? 0, completions: figures['completions'] ?? 0 };
};

const crmCourseNames = async (token: string, courseId?: string) =>
  (ok(await api('GET', `/api/crm/learners${courseId ? `?courseId=${courseId}` : ''}`, { token })) as { items: CrmLearner[] }).items;

/** Polls `check` until it holds (the local event source runs the job in the background), at most `ms`. */
const eventually = async (check: () => Promise<boolean>, ms = 100_000) => {
  const ends = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > ends) throw new Error('not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};

describe('a course with 2,000 learners, through the routes', () => {
  let creator: Account;
  let learner: Account;
  let courseId: string;

  beforeAll(async () => {
    creator = await accountWithRole('creator', 'cc-route-creator');
    learner = await accountWithRole('learner', 'cc-route-learner');
    const course = ok(await api('POST', '/api/courses', { token: creator.token, body: { title: 'Bread', description: 'Knead.' } }), 201) as { id: string };
    courseId = course.id;
    ok(await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } }));
    ok(await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } }), 201);
    useLocalCloudEnv();
    await seedEnrollments(creator.id, courseId, 'Bread');
  }, 120_000);

  it('is renamed by a request that answers at once; the screens show the new title at once, every enrolment after the run', async () => {
    const renamed = ok(await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { title: 'Sourdough' } }));
    expect((renamed as { title: string }).title).toBe('Sourdough');
    // One write and one message: nothing in the request grows with the learners (2,000 updates took 10+ s inside it).
    // Checked without a clock in 'a run killed midway' below (one slice sent, no enrolment rewritten when it answers):
    // a wall-clock bound here measured the machine's load as much as the request.
    expect(new Set((await crmCourseNames(creator.token, courseId)).map((r) => r.courseName))).toEqual(new Set(['Sourdough']));
    const mine = ok(await api('GET', '/api/learner/courses', { token: learner.token })) as { items: { courseId: string; title: string }[] };
    expect(mine.items.find((c) => c.courseId === courseId)?.title).toBe('Sourdough');
    useLocalCloudEnv();
    await eventually(async () => (await partition(courseId, 'ENROLL#')).every((e) => e['courseTitle'] === 'Sourdough'));
    expect(await partition(courseId, 'ENROLL#')).toHaveLength(MANY + 1);
  }, 150_000);

  it('is deleted by a request that answers at once; its rows leave the screens at once, every enrolment after the run, counted out once', async () => {
    useLocalCloudEnv();
    const before = await settled(creator.id);
    // Nothing in the request grows with the learners: checked without a clock below (every enrolment still there when it answers).
    ok(await api('DELETE', `/api/courses/${courseId}`, { token: creator.token }));
    expect((await crmCourseNames(creator.token)).filter((r) => r.courseId === courseId)).toEqual([]);
    const mine = ok(await api('GET', '/api/learner/courses', { token: learner.token })) as { items: { courseId: string }[] };
    expect(mine.items.filter((c) => c.courseId === courseId)).toEqual([]);
    useLocalCloudEnv();
    await eventually(async () => (await partition(courseId)).length === 0);
    const completed = Math.ceil(MANY / COMPLETED_EVERY);
    // The enrolments' removal reaches the figures through the table's stream (decision 0040).
    const expected = { courses: before.courses - 1, students: before.students - MANY - 1, completions: before.completions - completed };
    expect(await counted(() => stats(creator.id))).toEqual(expected);
  }, 150_000);
});

describe('a run killed midway (its slices driven here, one killed and delivered again)', () => {
  let creator: Account;
  let learner: Account;
  let courseId: string;

  beforeAll(async () => {
    creator = await accountWithRole('creator', 'cc-creator');
    learner = await accountWithRole('learner', 'cc-learner');
    const course = ok(await api('POST', '/api/courses', { token: creator.token, body: { title: 'Knife skills', description: 'Chop.' } }), 201) as { id: string };
    courseId = course.id;
    ok(await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Grip', kind: 'text', body: '<p>Hold it.</p>' } }), 201);
    ok(await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } }));
    ok(await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } }), 201);
    useLocalCloudEnv();
    await seedEnrollments(creator.id, courseId, 'Knife skills', KILLED);
  }, 120_000);

  it('is renamed at once, the screens show the new title at once, and the run carries it to every enrolment and licence: killed midway, nothing lost or doubled', async () => {
    useLocalCloudEnv();
    const leader = await accountWithRole('leader', 'cc-leader');
    const grant = ok(await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 3 } }), 201) as { id: string };
    useLocalCloudEnv();
    const { jobs, run, queue } = jobsOnMemoryQueue();

    const renamed = await updateCourse({ courses: courseRepository(), jobs, clock }, { creatorId: creator.id, courseId, body: { title: 'Sharp knives' } });
    expect(renamed.title).toBe('Sharp knives');
    // The request wrote the course item and sent one slice: nothing in it grows with the learners (no enrolment has
    // the new title before the run; counted, not timed, so a loaded machine does not fail it).
    expect(queue.queued.map((s) => s.run)).toEqual([expect.stringMatching(new RegExp(`^course-changed@${courseId}@`))]);
    const first = queue.queued[0]!;
    expect((await partition(courseId, 'ENROLL#')).filter((e) => e['courseTitle'] === 'Sharp knives')).toHaveLength(0);

    // Before the run: the CRM and the learner's list read the title where it lives.
    expect(new Set((await crmCourseNames(creator.token, courseId)).map((r) => r.courseName))).toEqual(new Set(['Sharp knives']));
    const mine = ok(await api('GET', '/api/learner/courses', { token: learner.token })) as { items: { courseId: string; title: string }[] };
    expect(mine.items.find((c) => c.courseId === courseId)?.title).toBe('Sharp knives');

    const result = await run({ sliceMs: 150, killAt: 300 });
    expect(result.kills).toBe(1);
    expect(result.slices).toBeGreaterThan(3);
    const enrollments = await partition(courseId, 'ENROLL#');
    expect(enrollments).toHaveLength(KILLED + 1);
    expect(enrollments.filter((e) => e['courseTitle'] !== 'Sharp knives')).toEqual([]);
    // Each enrolment written once: the slice killed midway left the ones it had done stamped, and its redelivery skipped them.
    expect(result.writes).toBe(KILLED + 1);
    expect(result.counts['licenses']).toBe(1);
    const license = ok(await api('GET', `/api/courses/${courseId}/licenses`, { token: creator.token })) as { items: { id: string; courseTitle: string }[] };
    expect(license.items.find((l) => l.id === grant.id)?.courseTitle).toBe('Sharp knives');

    // The same run delivered again long after (past the queue's deduplication window): it reads, and writes nothing.
    queue.queued.push(courseChangeSlice({ change: 'renamed', courseId, title: 'Sharp knives', version: first.input!['version'] as string }));
    const again = await run({ sliceMs: 2_000 });
    expect(again.writes).toBe(0);
    expect(again.counts['unchanged']).toBe(KILLED + 2);
  }, 120_000);

  it('is deleted at once; its rows leave the screens at once and the run removes every enrolment, counters moved exactly once, killed midway', async () => {
    useLocalCloudEnv();
    const before = await settled(creator.id);
    const { jobs, run } = jobsOnMemoryQueue();
    // Nothing in the request grows with the learners: every enrolment is still there when it answers (below).
    const deleted = await deleteCourse({ courses: courseRepository(), clock, jobs }, { creatorId: creator.id, courseId });
    expect(deleted.id).toBe(courseId);
    expect(await stats(creator.id)).toMatchObject({ courses: before.courses - 1, students: before.students });
    expect((await api('GET', `/api/courses/${courseId}`, { token: creator.token })).status).toBe(404);

    // The enrolments are still there, but no screen shows them: the course is gone.
    expect((await partition(courseId, 'ENROLL#')).length).toBe(KILLED + 1);
    expect((await crmCourseNames(creator.token)).filter((r) => r.courseId === courseId)).toEqual([]);
    const mine = ok(await api('GET', '/api/learner/courses', { token: learner.token })) as { items: { courseId: string }[] };
    expect(mine.items.filter((c) => c.courseId === courseId)).toEqual([]);

    const result = await run({ sliceMs: 100, killAt: 8 });
    expect(result.kills).toBe(1);
    expect(result.slices).toBeGreaterThan(2);
    expect(await partition(courseId)).toEqual([]);
    expect(result.writes).toBe(KILLED + 1);
    const completed = Math.ceil(KILLED / COMPLETED_EVERY);
    // Through the table's stream (decision 0040): every enrolment counted out once, the killed slice's too.
    const expected = { courses: before.courses - 1, students: before.students - KILLED - 1, completions: before.completions - completed };
    expect(await counted(() => stats(creator.id))).toEqual(expected);
  }, 120_000);
});

describe('two renames of one course', () => {
  it('the older run, overtaken by the newer, stops and never undoes it', async () => {
    const creator = await accountWithRole('creator', 'cc-twice');
    const course = ok(await api('POST', '/api/courses', { token: creator.token, body: { title: 'First', description: 'Chop.' } }), 201) as { id: string };
    useLocalCloudEnv();
    await seedEnrollments(creator.id, course.id, 'First', 120);
    const { jobs, run, queue } = jobsOnMemoryQueue();
    await updateCourse({ courses: courseRepository(), jobs, clock }, { creatorId: creator.id, courseId: course.id, body: { title: 'Old news' } });
    const older = queue.queued.shift()!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await updateCourse({ courses: courseRepository(), jobs, clock }, { creatorId: creator.id, courseId: course.id, body: { title: 'Blades' } });
    expect((await run({ sliceMs: 2_000 })).writes).toBe(120);
    // The older run, late: the course's rename stamp is not its own, so it writes nothing.
    queue.queued.push(older);
    const late = await run({ sliceMs: 2_000 });
    expect(late.writes).toBe(0);
    expect(late.counts).toMatchObject({ retitled: 0, superseded: 1 });
    expect((await partition(course.id, 'ENROLL#')).filter((e) => e['courseTitle'] !== 'Blades')).toEqual([]);
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { COMMENTS_PAGE } from '#contracts/comments.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import type { StoredComment } from '#core/comments/ports.ts';
import { newCommentItem } from '#data/comments.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { signIn } from './api-latency.ts';
import { compareFirstPages } from './first-pages.ts';
import { givePro } from './public-api.ts';
import { consumedCapacity, count, fetchOk, runPartAlone, seedingHow, writeAll } from './cloud-part.ts';
import { errorRow, row, type Row } from './table.ts';

/**
 * A lesson discussion's first page at 10 and at 10,000 threads (issue 35 point 3; QUALITY.md: every list a person
 * pages through costs the same within 1.5x at 10 and at 10,000 items). One creator of the bench's own (a Pro plan
 * first, as public-api.ts gives one) with a published course of two lessons made through the product's routes, and an
 * enrolled learner who reads both. The threads are written straight into the table (see `writeAll`), shaped as
 * functions/data/comments.ts's `create` writes them (the comment item in its lesson's gsi1 partition, a learner's in
 * the creator's gsi2 and, while unanswered, the creator's questions in gsi3); every REPLIED_EVERY-th thread has the
 * creator's reply, in its thread's gsi1 partition (the page reads each such thread's replies beside it), so both first
 * pages do the same kinds of reads.
 * Then GET /api/courses/{courseId}/lessons/{lessonId}/comments (no cursor) as the learner for each lesson, one request
 * in flight, the two alternating. bench.ts adds `benchDiscussions`'s rows; run alone:
 * `node --import tsx test/bench/discussions.ts`.
 */

const SMALL = 10;
const LARGE = 10_000;
const WARM_UP_REQUESTS = 20;
const REQUESTS = 200;
const RATIO_BUDGET = 1.5;
const REPLIED_EVERY = 4;
const MINUTE_MS = 60_000;

interface BenchLesson {
  id: string;
  threads: number;
}

/** The creator, their published course with one lesson per size, and a learner enrolled in it, through the routes. */
const setUp = async (cloud: LocalCloud, gatewayUrl: string) => {
  const stamp = Date.now();
  const password = 'BenchDiscuss123';
  const creatorEmail = `bench-discuss-creator-${stamp}@example.com`;
  const creator = await createAccount(getDeps(), { email: creatorEmail, role: 'creator', password });
  const learnerEmail = `bench-discuss-learner-${stamp}@example.com`;
  const learner = await createAccount(getDeps(), { email: learnerEmail, role: 'learner', password });
  // Creators need a plan to make courses (issue 29): the public API bench's Pro, as Stripe's webhook leaves it.
  await givePro(creator.id);
  const { token: creatorToken } = await signIn(cloud, creatorEmail, password);
  const { token: learnerToken } = await signIn(cloud, learnerEmail, password);
  const send = async (method: string, path: string, body: unknown, expected: number) => {
    const res = await fetch(`${gatewayUrl}${path}`, { method, headers: { authorization: `Bearer ${creatorToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as { id: string };
  };
  const { id: courseId } = await send('POST', '/api/courses', { title: `Bench discussions ${stamp}`, description: 'Threads at two sizes.' }, 201);
  const lessons: BenchLesson[] = [];
  for (const threads of [SMALL, LARGE]) {
    const { id } = await send('POST', `/api/courses/${courseId}/lessons`, { title: `${count(threads)} threads`, kind: 'text', body: '<p>Talk below.</p>' }, 201);
    lessons.push({ id, threads });
  }
  await send('PATCH', `/api/courses/${courseId}`, { status: 'published' }, 200);
  await send('POST', `/api/courses/${courseId}/enrollments`, { email: learnerEmail }, 201);
  return { creatorId: creator.id, learnerId: learner.id, learnerToken, courseId, lessons };
};

/** A lesson's threads by other learners over the last weeks, newest activity last written, as `create` writes them. */
const seedItems = (creatorId: string, courseId: string, lesson: BenchLesson, now: number): Record<string, unknown>[] => {
  const items: Record<string, unknown>[] = [];
  for (let n = 0; n < lesson.threads; n++) {
    const at = new Date(now - (lesson.threads - n) * MINUTE_MS).toISOString();
    const replied = n % REPLIED_EVERY === 0;
    const repliedAt = new Date(Date.parse(at) + 30_000).toISOString();
    const thread: StoredComment = {
      id: randomUUID(),
      courseId,
      lessonId: lesson.id,
      creatorId,
      parentId: null,
      authorId: randomUUID(),
      authorName: `Learner ${n}`,
      authorRole: 'learner',
      body: `Question ${n}: how thick should the wash be on cold-pressed paper?`,
      html: `<p>Question ${n}: how thick should the wash be on cold-pressed paper?</p>`,
      createdAt: at,
      editedAt: null,
      hidden: false,
      reports: 0,
      pinned: false,
      deleted: false,
      lastActivityAt: replied ? repliedAt : at,
      replyCount: replied ? 1 : 0,
    };
    // As the routes leave it: a thread the creator replied to is answered, off the unanswered questions.
    const { gsi3pk: _questions, gsi3sk: _asked, ...answered } = newCommentItem(thread);
    items.push(replied ? { ...answered, answeredAt: repliedAt } : newCommentItem(thread));
    if (replied) {
      const reply: StoredComment = {
        ...thread,
        id: randomUUID(),
        parentId: thread.id,
        authorId: creatorId,
        authorName: 'Bench Creator',
        authorRole: 'creator',
        body: 'Like single cream.',
        html: '<p>Like single cream.</p>',
        createdAt: repliedAt,
        lastActivityAt: repliedAt,
        replyCount: 0,
      };
      items.push(newCommentItem(reply));
    }
  }
  return items;
};

export const discussionsSection = `Lesson discussion first page, GET /api/courses/{courseId}/lessons/{lessonId}/comments as a learner: ${count(SMALL)} vs ${count(LARGE)} threads (1 in flight, ${REQUESTS} each after ${WARM_UP_REQUESTS} warm-up, alternating)`;

/** The rows of this part, on a running local cloud and a gateway with the throttles lifted. */
export const benchDiscussions = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  const rows: Row[] = [];
  let world: Awaited<ReturnType<typeof setUp>>;
  try {
    applyFunctionEnv(cloud.env);
    log('creating a bench creator, their course of two lessons and an enrolled learner (through the routes)');
    world = await setUp(cloud, gatewayUrl);
    const now = Date.now();
    const items = world.lessons.flatMap((lesson) => seedItems(world.creatorId, world.courseId, lesson, now));
    log(`seeding ${count(SMALL + LARGE)} threads (the creator's reply in every ${REPLIED_EVERY}th): ${count(items.length)} items, ${seedingHow}`);
    const started = performance.now();
    await writeAll(cloud, items);
    const seconds = (performance.now() - started) / 1000;
    rows.push(
      row(
        `seeding ${count(SMALL)} + ${count(LARGE)} threads (+ a reply every ${REPLIED_EVERY}th): ${seedingHow}`,
        `${seconds.toFixed(1)} s (${count(items.length)} items, ${count(Math.round(items.length / seconds))} items/s)`,
      ),
    );
  } catch (error) {
    return [...rows, errorRow('discussion bench course and its threads', error)];
  }

  const url = (lesson: BenchLesson) => `${gatewayUrl}/api/courses/${world.courseId}/lessons/${lesson.id}/comments`;
  const [small, large] = world.lessons as [BenchLesson, BenchLesson];
  try {
    log(`GET .../comments, ${count(SMALL)} and ${count(LARGE)} threads alternating: ${WARM_UP_REQUESTS} warm-up, ${REQUESTS} measured each`);
    rows.push(
      ...(await compareFirstPages({
        small: { url: url(small), token: world.learnerToken, items: SMALL },
        large: { url: url(large), token: world.learnerToken, items: LARGE },
        pageSize: COMMENTS_PAGE,
        noun: 'threads',
        warmUp: WARM_UP_REQUESTS,
        requests: REQUESTS,
        budget: RATIO_BUDGET,
      })),
    );
  } catch (error) {
    rows.push(errorRow('GET .../comments first page', error));
  }

  try {
    const firstPageOf = (lesson: BenchLesson) => () => fetchOk(url(lesson), world.learnerToken);
    const [cs, cl] = [await consumedCapacity(firstPageOf(small)), await consumedCapacity(firstPageOf(large))];
    rows.push(
      row(
        `read capacity of one first page at ${count(SMALL)} / ${count(LARGE)} (access reads, the threads' Query, their replies' Queries)`,
        cs && cl ? `${cs.units} / ${cl.units} RCU (${cs.calls} / ${cl.calls} DynamoDB calls)` : 'not reported by DynamoDB Local',
      ),
    );
  } catch (error) {
    rows.push(errorRow('read capacity of a first page', error));
  }
  return rows;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPartAlone('discussions', discussionsSection, benchDiscussions);

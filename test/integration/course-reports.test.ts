import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_HEADERS } from '#contracts/reports.ts';
import { orderKeys } from '#data/orders.ts';
import { work as issuerWork } from '#functions/jobs/certificate-issuer.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { accountWithRole, api, dynamo, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Detailed reports and exports (issue 29 point 3, Pro) through the gateway: learners open, complete and retry lessons
 * and take a quiz; the course report shows the exact figures (each learner once); a Starter creator is refused with
 * PLAN_REQUIRED; the exports hold every row, past a page, with a formula cell made harmless.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;

const quiz = {
  passPercent: 100,
  questions: [
    { prompt: 'Which knife for bread?', type: 'single', options: ['Paring', 'Serrated'], correct: [1] },
    { prompt: 'Curl your fingers?', type: 'single', options: ['Yes', 'No'], correct: [0] },
  ],
};
const RIGHT = [[1], [0]];
const HALF = [[1], [1]];
const FORMULA = '=cmd|\' /C calc\'!A0';
const SALES = 1_234;
const run = Date.now().toString(36);

let pro: Account;
let starter: Account;
let courseId: string;
let starterCourseId: string;
const lessons: Record<'read' | 'practise' | 'check', string> = { read: '', practise: '', check: '' };
const learners: Record<'ann' | 'bob' | 'cyd' | 'dee', Account> = {} as never;

const open = (who: Account, lessonId: string) => api('GET', `/api/learner/courses/${courseId}/lessons/${lessonId}`, { token: who.token });
const complete = (who: Account, lessonId: string) => api('POST', `/api/learner/courses/${courseId}/lessons/${lessonId}/complete`, { token: who.token, body: {} });
const attempt = (who: Account, answers: number[][]) => api('POST', `/api/learner/courses/${courseId}/lessons/${lessons.check}/attempts`, { token: who.token, body: { answers } });

/** An export through its link, and the file's lines. */
const exported = async (token: string, kind: string) => {
  const answer = await api('GET', `/api/creator/exports/${kind}?format=csv&delivery=link`, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const file = await fetch((answer.body as { url: string }).url);
  expect(file.headers.get('content-type')).toContain('text/csv');
  return { rows: (answer.body as { rows: number }).rows, lines: (await file.text()).trimEnd().split('\n') };
};

beforeAll(async () => {
  [pro, starter] = [await accountWithRole('creator', 'report-pro'), await accountWithRole('creator', 'report-starter', { plan: 'starter' })];
  courseId = (await api('POST', '/api/courses', { token: pro.token, body: { title: FORMULA } })).body.id as string;
  for (const [name, body] of [
    ['read', { title: 'Holding a knife', kind: 'text', body: '<p>Grip.</p>' }],
    ['practise', { title: 'Slicing', kind: 'text', body: '<p>Slice.</p>' }],
    ['check', { title: 'Safety check', kind: 'quiz', quiz }],
  ] as const) {
    const made = await api('POST', `/api/courses/${courseId}/lessons`, { token: pro.token, body });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    lessons[name] = made.body.id as string;
  }
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: pro.token, body: { status: 'published' } })).status).toBe(200);
  for (const name of ['ann', 'bob', 'cyd', 'dee'] as const) {
    learners[name] = await accountWithRole('learner', `report-${name}`);
    expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: pro.token, body: { email: learners[name].email } })).status).toBe(201);
  }
  starterCourseId = (await api('POST', '/api/courses', { token: starter.token, body: { title: 'Starter course' } })).body.id as string;

  // More paid sales than a page of the export, one with a formula for a buyer address (as the orders module keys them).
  const paidAt = (i: number) => `2026-11-20T09:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`;
  const orders = Array.from({ length: SALES }, (_, i) => {
    const id = `ord_${run}_${String(i).padStart(5, '0')}`;
    return {
      PutRequest: {
        Item: {
          ...orderKeys.order(id),
          ...orderKeys.sales(pro.id, paidAt(i), id),
          type: 'Order',
          ...pendingOrder({
            id,
            courseId,
            courseTitle: FORMULA,
            creatorId: pro.id,
            accountId: 'acct_report',
            status: 'paid',
            buyerEmail: i === 0 ? '=HYPERLINK("http://evil.example")' : `buyer${i}@example.com`,
            price: 2000,
            amount: 2000,
            createdAt: paidAt(i),
            paidAt: paidAt(i),
          }),
        },
      },
    };
  });
  for (let i = 0; i < orders.length; i += 25) await dynamo().send(new BatchWriteCommand({ RequestItems: { [outputs().TableName]: orders.slice(i, i + 25) } }));
}, 180_000);

describe('the course report', () => {
  it('shows the exact figures, each learner counted once however often they retry', async () => {
    const { ann, bob, cyd } = learners;
    // ann opens the first lesson twice and completes it (the completion sent again, and five at once), then the rest;
    // she fails the quiz once, then passes: the course is complete.
    expect((await open(ann, lessons.read)).status).toBe(200);
    expect((await open(ann, lessons.read)).status).toBe(200);
    expect((await complete(ann, lessons.read)).status).toBe(200);
    await Promise.all(Array.from({ length: 5 }, () => complete(ann, lessons.read)));
    await open(ann, lessons.practise);
    await complete(ann, lessons.practise);
    await open(ann, lessons.check);
    expect((await attempt(ann, HALF)).body).toMatchObject({ passed: false });
    expect((await attempt(ann, RIGHT)).body).toMatchObject({ passed: true, completedAt: expect.any(String) as string });
    // bob completes the first lesson without opening it (five times at once), opens the second and stops.
    await Promise.all(Array.from({ length: 5 }, () => complete(bob, lessons.read)));
    await open(bob, lessons.practise);
    // cyd takes the quiz straight away (an activity that reaches it) and fails; dee does nothing.
    expect((await attempt(cyd, [[0], [1]])).body).toMatchObject({ passed: false });

    const res = await api('GET', `/api/creator/reports/courses/${courseId}`, { token: pro.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      courseId,
      title: FORMULA,
      enrolled: 4,
      started: 3,
      completed: 1,
      completionRate: 0.25,
      lessons: [
        { lessonId: lessons.read, title: 'Holding a knife', kind: 'text', reached: 2, completed: 2 },
        { lessonId: lessons.practise, title: 'Slicing', kind: 'text', reached: 2, completed: 1 },
        { lessonId: lessons.check, title: 'Safety check', kind: 'quiz', reached: 2, completed: 1 },
      ],
      quizzes: [
        {
          lessonId: lessons.check,
          title: 'Safety check',
          attempts: 3,
          passRate: 0.333,
          questions: [
            { prompt: 'Which knife for bread?', answers: 3, correctRate: 0.667 },
            { prompt: 'Curl your fingers?', answers: 3, correctRate: 0.333 },
          ],
        },
      ],
    });
  });

  it("is 404 for another creator's course and 403 PLAN_REQUIRED (Pro) for a Starter creator's own", async () => {
    // Another Pro creator (a Starter one is refused by the plan first: the middleware checks the feature before the handler).
    const outsider = await accountWithRole('creator', 'report-outsider');
    const other = await api('GET', `/api/creator/reports/courses/${courseId}`, { token: outsider.token });
    expect(other.status).toBe(404);
    expect((await api('GET', `/api/creator/reports/courses/${courseId}`, { token: starter.token })).status).toBe(403);
    const refused = await api('GET', `/api/creator/reports/courses/${starterCourseId}`, { token: starter.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } });
  });
});

describe('GET /api/creator/exports/{kind}', () => {
  it('writes every sale, past a page, newest first, with formula cells quoted', async () => {
    const { rows, lines } = await exported(pro.token, 'sales');
    expect(rows).toBe(SALES);
    expect(lines[0]).toBe(EXPORT_HEADERS.sales);
    expect(lines).toHaveLength(SALES + 1);
    const ids = lines.slice(1).map((line) => line.split(',')[0]);
    expect(new Set(ids).size).toBe(SALES);
    expect(ids[0]).toBe(`ord_${run}_${String(SALES - 1).padStart(5, '0')}`);
    // The oldest sale (last line): its buyer's formula and the course title start with a quote mark.
    const oldest = lines[SALES]!;
    expect(oldest).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(oldest).toContain(`'${FORMULA}`);
    expect(lines.slice(1).every((line) => !/(^|,)=/.test(line))).toBe(true);
  });

  it('writes every learner and every certificate of the creator', async () => {
    const learnersFile = await exported(pro.token, 'learners');
    expect(learnersFile.lines[0]).toBe(EXPORT_HEADERS.learners);
    expect(learnersFile.rows).toBe(4);
    expect(learnersFile.lines.slice(1).map((line) => line.split(',')[1]).sort()).toEqual(Object.values(learners).map((l) => l.email).sort());
    expect(learnersFile.lines.slice(1).every((line) => line.includes(`'${FORMULA}`))).toBe(true);

    // ann completed the course: the issuing job, run as the scheduler runs it, gives her the certificate.
    let certificates = await exported(pro.token, 'certificates');
    for (let i = 0; i < 20 && certificates.rows === 0; i++) {
      useLocalCloudEnv();
      await runToEnd('certificate-issuer', issuerWork);
      certificates = await exported(pro.token, 'certificates');
    }
    expect(certificates.lines[0]).toBe(EXPORT_HEADERS.certificates);
    expect(certificates.rows).toBe(1);
    expect(certificates.lines[1]).toContain(`,${learners.ann.email},`);
    expect(certificates.lines[1]).toContain(`'${FORMULA}`);
  }, 60_000);

  it('refuses a Starter creator (PLAN_REQUIRED), an unknown kind and another format (400)', async () => {
    const refused = await api('GET', '/api/creator/exports/sales?format=csv', { token: starter.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } });
    for (const path of ['/api/creator/exports/everything?format=csv', '/api/creator/exports/%3Dcmd', '/api/creator/exports/sales?format=xlsx']) {
      const res = await api('GET', path, { token: pro.token });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code, path).toBe('VALIDATION_FAILED');
    }
  });

  it('answers a redirect to the file by default', async () => {
    const res = await fetch(`${outputs().ApiUrl}/api/creator/exports/learners?format=csv`, { headers: { authorization: `Bearer ${pro.token}` }, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^http/);
  });
});

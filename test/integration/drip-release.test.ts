import { beforeAll, describe, expect, it } from 'vitest';
import type { DripDueDeps } from '#core/enrollments/drip-notices.ts';
import { LESSON_READY_SUBJECT } from '#core/enrollments/lesson-ready-email.ts';
import { dynamoDripPlans } from '#data/drip-notices.ts';
import { work as dripWork } from '#functions/jobs/drip-due.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, eventually, useLocalCloudEnv } from './support.ts';

type Account = Awaited<ReturnType<typeof accountWithRole>>;

/**
 * Drip release on the local cloud (issue 33 part 1): a lesson dated a few seconds ahead is locked for the learner (listed
 * with its date, 403 LESSON_LOCKED on its route), the 'drip-due' job opens it once its time comes and its "A new lesson
 * is ready" email reaches SES local once; a second run sends nothing. The job's runs here see this file's course only.
 */
let creator: Account;
let learner: Account;
let courseId: string;
let lessonId: string;
let opensAt: string;

const runJob = async () => {
  const plans = dynamoDripPlans();
  const replaced: Partial<DripDueDeps> = {
    plans: {
      ...plans,
      async due(now, limit, after) {
        const page = await plans.due(now, limit, after);
        return { ...page, items: page.items.filter((p) => p.courseId === courseId) };
      },
    },
  };
  return (await runToEnd('drip-due', (remainingMs) => dripWork(remainingMs, replaced))).counts;
};

beforeAll(async () => {
  useLocalCloudEnv();
  [creator, learner] = await Promise.all([accountWithRole('creator', 'drip'), accountWithRole('learner', 'drip-learner')]);
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Dripped' } })).body.id as string;
  await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Open now', kind: 'text', body: '<p>Hi</p>' } });
  opensAt = new Date(Date.now() + 8_000).toISOString();
  const made = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Soon', kind: 'text', body: '<p>Later</p>', release: { kind: 'date', at: opensAt } } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.release).toEqual({ kind: 'date', at: opensAt });
  lessonId = made.body.id as string;
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
  expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
}, 120_000);

describe('a lesson dated a few seconds ahead', () => {
  it('is locked, then opened by the job with one email, and a second run sends none', async () => {
    const detail = await api('GET', `/api/learner/courses/${courseId}`, { token: learner.token });
    expect(detail.status).toBe(200);
    const soon = (detail.body.lessons as { id: string }[]).find((l) => l.id === lessonId);
    expect(soon).toMatchObject({ locked: true, availableAt: opensAt, body: null, files: [] });
    const refused = await api('GET', `/api/learner/courses/${courseId}/lessons/${lessonId}`, { token: learner.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'LESSON_LOCKED', details: { availableAt: opensAt } });
    expect((await runJob()).noticed ?? 0).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(opensAt) - Date.now()) + 500));
    expect((await api('GET', `/api/learner/courses/${courseId}/lessons/${lessonId}`, { token: learner.token })).status).toBe(200);
    expect((await runJob()).noticed).toBe(1);
    const mails = await eventually(() => mailsTo(learner.email), (found) => found.some((m) => m.subject === LESSON_READY_SUBJECT), 90_000);
    expect(mails.filter((m) => m.subject === LESSON_READY_SUBJECT)).toHaveLength(1);

    expect((await runJob()).noticed ?? 0).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await mailsTo(learner.email)).filter((m) => m.subject === LESSON_READY_SUBJECT)).toHaveLength(1);
  }, 180_000);
});

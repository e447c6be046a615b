import { describe, expect, it } from 'vitest';
import { quizDefinition } from '#contracts/courses.ts';
import { dynamoCredits } from '#data/credits.ts';
import { giveCredits } from './billing-support.ts';
import { accountWithRole, api, outputs, useLocalCloudEnv } from './support.ts';

/** AI drafting (issue 36) end to end: the gateway, the handlers, DynamoDB Local and the Bedrock stand-in. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A POST; a 429 of the routes' tight throttle (5/s) is waited out, as the web app's user would. */
const post = async (token: string, path: string, body: unknown, key?: string) => {
  for (;;) {
    const res = await api('POST', path, { token, body, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
    if (res.status !== 429) return res;
    await sleep(300);
  }
};

const stand = (path: string, init?: RequestInit) => fetch(`${outputs().BedrockEndpoint}${path}`, init).then((res) => res.json() as Promise<Record<string, unknown>>);
const modelCalls = async () => ((await stand('/_stand-in/calls'))['calls'] as { tool?: string }[]).filter((call) => call.tool);
const setMode = (body: Record<string, unknown>) => stand('/_stand-in/mode', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const ledger = async (userId: string) => {
  useLocalCloudEnv();
  return (await dynamoCredits().ledger(userId)).filter((row) => row.actionType !== 'test_grant').map((row) => [row.actionType, row.credits]);
};
const balance = async (token: string) => (await api('GET', '/api/me/credits', { token })).body.creditsRemaining as number;

const creatorWithCredits = async (tag: string, credits: number) => {
  const creator = await accountWithRole('creator', tag);
  await giveCredits(creator.id, credits);
  return creator;
};

const outlineBody = { topic: 'Sourdough baking at home', audience: 'home bakers', lessons: 4 };

describe('AI drafting on the same credits', () => {
  it('answers the price table', async () => {
    const creator = await accountWithRole('creator', 'ai-prices');
    const res = await api('GET', '/api/ai/prices', { token: creator.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ landingPage: 15, courseOutline: 5, lessonDraft: 5, quizFromLesson: 3 });
  });

  it('drafts an outline, a lesson from it and a quiz from the saved lesson, each charged on a line naming the tool', async () => {
    const creator = await creatorWithCredits('ai-flow', 20);
    const outline = await post(creator.token, '/api/ai/course-outline', outlineBody);
    expect(outline.status).toBe(200);
    expect(outline.body.outline.lessons).toHaveLength(4);
    expect(outline.body.creditsRemaining).toBe(15);

    // Create the course from the outline through the ordinary routes: nothing was saved by the AI route.
    const course = await api('POST', '/api/courses', { token: creator.token, body: { title: outline.body.outline.title, description: outline.body.outline.description } });
    expect(course.status).toBe(201);
    const courseId = course.body.id as string;

    const draft = await post(creator.token, '/api/ai/lesson-draft', { courseId, title: outline.body.outline.lessons[0].title, summary: outline.body.outline.lessons[0].summary });
    expect(draft.status).toBe(200);
    expect(draft.body.body).toContain('## ');
    expect(draft.body.creditsRemaining).toBe(10);

    const lesson = await api('POST', `/api/courses/${courseId}/lessons`, {
      token: creator.token,
      body: { title: 'Starter', kind: 'text', body: '<p>A starter is flour and water left to ferment. Feed it every day at the same time.</p><p>A ripe starter floats in water.</p>' },
    });
    expect(lesson.status).toBe(201);
    const quiz = await post(creator.token, '/api/ai/quiz-from-lesson', { courseId, lessonId: lesson.body.id, questions: 3 });
    expect(quiz.status).toBe(200);
    expect(quizDefinition.safeParse(quiz.body.quiz).success).toBe(true);
    expect(quiz.body.creditsRemaining).toBe(7);

    // The quiz saves as a quiz lesson as it is.
    const saved = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Starter quiz', kind: 'quiz', quiz: quiz.body.quiz } });
    expect(saved.status).toBe(201);

    expect(await ledger(creator.id)).toEqual([
      ['course_outline_generation', -5],
      ['lesson_draft_generation', -5],
      ['quiz_from_lesson_generation', -3],
    ]);
    // The lesson draft was never stored: the course has only the lessons the creator saved.
    const stored = await api('GET', `/api/courses/${courseId}`, { token: creator.token });
    expect((stored.body.lessons as { title: string }[]).map((l) => l.title)).toEqual(['Starter', 'Starter quiz']);
  });

  it('is 402 when the balance is short, with no model call', async () => {
    const creator = await creatorWithCredits('ai-short', 2);
    const before = (await modelCalls()).length;
    const res = await post(creator.token, '/api/ai/course-outline', outlineBody);
    expect(res.status).toBe(402);
    expect(res.body.error.message).toBe('You need 5 AI credits to draft a course outline. Please top up your credits.');
    expect((await modelCalls()).length).toBe(before);
    expect(await balance(creator.token)).toBe(2);
  });

  it('refunds the credits when the stand-in fails, and answers 502', async () => {
    const creator = await creatorWithCredits('ai-fail', 10);
    // 424 ModelErrorException: the SDK does not retry it (a 500 it would, once).
    await setMode({ mode: 'fail', count: 1, status: 424 });
    const res = await post(creator.token, '/api/ai/course-outline', outlineBody);
    expect(res.status).toBe(502);
    expect(await balance(creator.token)).toBe(10);
    expect(await ledger(creator.id)).toEqual([
      ['course_outline_generation', -5],
      ['course_outline_refund', 5],
    ]);
  });

  it('repairs a cut-off answer with one more call and no second charge', async () => {
    const creator = await creatorWithCredits('ai-repair', 10);
    await setMode({ mode: 'truncated', count: 1 });
    const res = await post(creator.token, '/api/ai/course-outline', outlineBody);
    expect(res.status).toBe(200);
    expect(res.body.outline.lessons).toHaveLength(4);
    expect(await balance(creator.token)).toBe(5);
  });

  it('charges an idempotent retry once and answers it the same', async () => {
    const creator = await creatorWithCredits('ai-retry', 10);
    const key = `ai-${Date.now()}`;
    const first = await post(creator.token, '/api/ai/course-outline', outlineBody, key);
    const again = await post(creator.token, '/api/ai/course-outline', outlineBody, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await ledger(creator.id)).toEqual([['course_outline_generation', -5]]);
    const other = await post(creator.token, '/api/ai/course-outline', { ...outlineBody, lessons: 5 }, key);
    expect(other.status).toBe(409);
  });

  it("is 404 for another creator's course, charging nothing", async () => {
    const owner = await creatorWithCredits('ai-owner', 10);
    const other = await creatorWithCredits('ai-other', 10);
    const course = await api('POST', '/api/courses', { token: owner.token, body: { title: 'Mine' } });
    const res = await post(other.token, '/api/ai/lesson-draft', { courseId: course.body.id, title: 'Steal' });
    expect(res.status).toBe(404);
    expect(await balance(other.token)).toBe(10);
  });
});

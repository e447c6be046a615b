import { beforeAll, describe, expect, it } from 'vitest';
import { accountWithRole, api } from './support.ts';

/**
 * The learner's lessons one at a time (issue 28 point 3), through the gateway against DynamoDB Local: the course's
 * outline (no bodies), one lesson by its route (as the whole course answers it: body, video, ready files only, the quiz
 * without its answers), and the course's rules on both (404 for a draft, a removed enrolment, another course's lesson).
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;

const quiz = { passPercent: 100, questions: [{ prompt: 'Which knife for bread?', type: 'single', options: ['Paring', 'Serrated'], correct: [1] }] };

let creator: Account;
let learner: Account;
let courseId: string;
let lessonIds: { text: string; video: string; quiz: string };
let readyFileId: string;

const get = (path: string, token = learner.token) => api('GET', path, { token });
const lessonPath = (lessonId: string, course = courseId) => `/api/learner/courses/${course}/lessons/${lessonId}`;

/** A file on the video lesson: `ready` after its one part is uploaded and completed, else left uploading. */
const attach = async (name: string, ready: boolean): Promise<string> => {
  const bytes = Buffer.from(`%PDF ${name}`);
  const started = await api('POST', `/api/courses/${courseId}/lessons/${lessonIds.video}/files`, {
    token: creator.token,
    body: { kind: 'attachment', name, contentType: 'application/pdf', size: bytes.length },
  });
  expect(started.status).toBe(201);
  const fileId = started.body.file.id as string;
  if (!ready) return fileId;
  const urls = await api('POST', `/api/courses/${courseId}/files/${fileId}/parts`, { token: creator.token, body: { partNumbers: [1] } });
  const put = await fetch(urls.body.parts[0].url as string, { method: 'PUT', body: bytes });
  expect(put.status).toBe(200);
  const done = await api('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { token: creator.token, body: { parts: [{ partNumber: 1, etag: put.headers.get('etag') }] } });
  expect(done.body).toMatchObject({ status: 'ready' });
  return fileId;
};

beforeAll(async () => {
  [creator, learner] = await Promise.all([accountWithRole('creator', 'lessons-creator'), accountWithRole('learner', 'lessons-learner')]);
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Bread', description: 'Bake it.' } })).body.id as string;
  const lesson = async (body: unknown) => {
    const made = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body });
    expect(made.status).toBe(201);
    return made.body.id as string;
  };
  lessonIds = {
    text: await lesson({ title: 'Knead', kind: 'text', body: '<p>Push and fold.</p>' }),
    video: await lesson({ title: 'Shape', kind: 'video', videoUrl: 'https://vimeo.com/76979871' }),
    quiz: await lesson({ title: 'Check', kind: 'quiz', quiz }),
  };
  readyFileId = await attach('recipe.pdf', true);
  await attach('half.pdf', false);
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
  expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
});

describe("the course's outline", () => {
  it('lists the lessons in order with their ticks and the progress, without a body, video, file or quiz', async () => {
    expect((await api('POST', `${lessonPath(lessonIds.text)}/complete`, { token: learner.token, body: {} })).status).toBe(200);
    const outline = await get(`/api/learner/courses/${courseId}/outline`);
    expect(outline.status).toBe(200);
    expect(outline.body).toMatchObject({ courseId, title: 'Bread', description: 'Bake it.', progress: 33, completedAt: null });
    expect(outline.body.lessons).toEqual([
      { id: lessonIds.text, title: 'Knead', kind: 'text', position: 0, completed: true, locked: false, availableAt: null },
      { id: lessonIds.video, title: 'Shape', kind: 'video', position: 1, completed: false, locked: false, availableAt: null },
      { id: lessonIds.quiz, title: 'Check', kind: 'quiz', position: 2, completed: false, locked: false, availableAt: null },
    ]);
    expect(JSON.stringify(outline.body)).not.toMatch(/Push and fold|vimeo|recipe|Serrated/);
  });
});

describe('one lesson', () => {
  it('answers each lesson exactly as the whole course lists it (the course answer keeps its bodies)', async () => {
    const whole = await get(`/api/learner/courses/${courseId}`);
    expect(whole.status).toBe(200);
    expect(whole.body.lessons.map((l: { body: string | null }) => l.body)).toEqual(['<p>Push and fold.</p>', null, null]);
    for (const each of whole.body.lessons as { id: string }[]) {
      const one = await get(lessonPath(each.id));
      expect(one.status).toBe(200);
      expect(one.body).toEqual(each);
    }
  });

  it('gives a text lesson its body and whether it is completed', async () => {
    const text = await get(lessonPath(lessonIds.text));
    expect(text.body).toEqual({ id: lessonIds.text, title: 'Knead', kind: 'text', body: '<p>Push and fold.</p>', videoUrl: null, position: 0, files: [], completed: true, quiz: null, assignment: null, locked: false, availableAt: null });
  });

  it('gives a video lesson its video and its ready files only', async () => {
    const video = await get(lessonPath(lessonIds.video));
    expect(video.body).toMatchObject({ kind: 'video', videoUrl: 'https://vimeo.com/76979871', position: 1, completed: false });
    expect(video.body.files).toEqual([expect.objectContaining({ id: readyFileId, name: 'recipe.pdf', status: 'ready' })]);
  });

  it('gives a quiz its prompts and the attempts so far, never the right answers', async () => {
    const before = await get(lessonPath(lessonIds.quiz));
    expect(JSON.stringify(before.body)).not.toContain('correct');
    expect(before.body.quiz).toEqual({
      passPercent: 100,
      maxAttempts: null,
      questions: [{ prompt: 'Which knife for bread?', type: 'single', options: ['Paring', 'Serrated'] }],
      attempts: 0,
      attemptsLeft: null,
      bestScore: null,
      passed: false,
      review: null,
    });
    expect((await api('POST', `${lessonPath(lessonIds.quiz)}/attempts`, { token: learner.token, body: { answers: [[0]] } })).status).toBe(200);
    expect((await get(lessonPath(lessonIds.quiz))).body.quiz).toMatchObject({ attempts: 1, bestScore: 0, passed: false, review: null });
  });
});

describe('the rules of the course', () => {
  const notFound = (res: { status: number; body: { error?: { code: string; message: string } } }, message: string) => {
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message });
  };

  it('is 404 "Lesson not found." for a lesson the course does not have, or another course\'s', async () => {
    notFound(await get(lessonPath('no-such-lesson')), 'Lesson not found.');
    const other = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Other' } })).body.id as string;
    const foreign = (await api('POST', `/api/courses/${other}/lessons`, { token: creator.token, body: { title: 'Elsewhere', kind: 'text', body: '<p>x</p>' } })).body.id as string;
    notFound(await get(lessonPath(foreign)), 'Lesson not found.');
  });

  it('is 404 "Course not found." for a missing course and a learner not enrolled', async () => {
    notFound(await get(lessonPath(lessonIds.text, 'no-such-course')), 'Course not found.');
    notFound(await get('/api/learner/courses/no-such-course/outline'), 'Course not found.');
    const stranger = await accountWithRole('learner', 'lessons-stranger');
    notFound(await get(lessonPath(lessonIds.text), stranger.token), 'Course not found.');
    notFound(await get(`/api/learner/courses/${courseId}/outline`, stranger.token), 'Course not found.');
  });

  it('is 404 while the course is a draft, and answers again once it is published', async () => {
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'draft' } })).status).toBe(200);
    notFound(await get(lessonPath(lessonIds.text)), 'Course not found.');
    notFound(await get(`/api/learner/courses/${courseId}/outline`), 'Course not found.');
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    expect((await get(lessonPath(lessonIds.text))).status).toBe(200);
  });

  it('is 404 once the enrolment is removed', async () => {
    const leaving = await accountWithRole('learner', 'lessons-leaving');
    const { learnerId } = (await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: leaving.email } })).body as { learnerId: string };
    expect((await get(lessonPath(lessonIds.text), leaving.token)).status).toBe(200);
    expect((await api('DELETE', `/api/courses/${courseId}/enrollments/${learnerId}`, { token: creator.token })).status).toBe(204);
    notFound(await get(lessonPath(lessonIds.text), leaving.token), 'Course not found.');
    notFound(await get(`/api/learner/courses/${courseId}/outline`, leaving.token), 'Course not found.');
  });
});

import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN_HTML } from '#adapters/html-sanitizer.ts';
import { readCreatorStats } from '#data/courses.ts';
import { documentClient, tableName } from '#data/table.ts';
import { xssPayloads } from '#test/support/xss-corpus.ts';
import { accountWithRole, api, apiAsClientRetries, counted, useLocalCloudEnv } from './support.ts';

/** The course builder end to end: the gateway, the handlers and DynamoDB Local. */
const YOUTUBE = 'https://youtu.be/dQw4w9WgXcQ';
const VIMEO = 'https://vimeo.com/76979871';

type Account = Awaited<ReturnType<typeof accountWithRole>>;
let ann: Account;
let bob: Account;

beforeAll(async () => {
  ann = await accountWithRole('creator', 'course-ann');
  bob = await accountWithRole('creator', 'course-bob');
});

const partition = async (courseId: string) => {
  useLocalCloudEnv();
  const { Items } = await documentClient().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `COURSE#${courseId}` }, ConsistentRead: true }),
  );
  return Items ?? [];
};

/** The course's partition empty: the 'course-changed' run (the local event source) has removed the rest. */
const emptied = async (courseId: string) => {
  const ends = Date.now() + 60_000;
  while ((await partition(courseId)).length > 0) {
    if (Date.now() > ends) throw new Error(`course ${courseId}: its partition was not emptied`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

const stats = async (creatorId: string) => {
  useLocalCloudEnv();
  const item = await readCreatorStats(creatorId, { consistent: true });
  return { courses: item['courses'] ?? 0, students: item['students'] ?? 0, completions: item['completions'] ?? 0 };
};

const newCourse = async (token: string, title = 'Knife skills') => {
  const res = await api('POST', '/api/courses', { token, body: { title, description: 'Chop safely.' } });
  expect(res.status).toBe(201);
  return res.body as { id: string; lessons: { id: string }[] };
};

describe('building a course', () => {
  it('create -> text and video lessons -> reorder -> edit -> publish -> delete', async () => {
    const startStats = await stats(ann.id);
    const course = await newCourse(ann.token);
    expect(course).toMatchObject({ title: 'Knife skills', description: 'Chop safely.', status: 'draft', lessonCount: 0, enrolledCount: 0, lessons: [] });
    expect((await stats(ann.id)).courses).toBe(startStats.courses + 1);

    const base = `/api/courses/${course.id}`;
    const text = await api('POST', `${base}/lessons`, { token: ann.token, body: { title: 'Grip', kind: 'text', body: '<h2>Grip</h2><p>Pinch the <strong>blade</strong>.</p>' } });
    expect(text.status).toBe(201);
    expect(text.body).toMatchObject({ kind: 'text', body: '<h2>Grip</h2><p>Pinch the <strong>blade</strong>.</p>', videoUrl: null, position: 0 });
    const youtube = await api('POST', `${base}/lessons`, { token: ann.token, body: { title: 'Watch', kind: 'video', videoUrl: YOUTUBE } });
    expect(youtube.status).toBe(201);
    const vimeo = await api('POST', `${base}/lessons`, { token: ann.token, body: { title: 'Again', kind: 'video', videoUrl: VIMEO } });
    expect(vimeo.body).toMatchObject({ kind: 'video', videoUrl: VIMEO, body: null, position: 2 });

    // A full order is idempotent: sent again after a 503 (a transaction late on a loaded machine) it is the same order.
    const reordered = await apiAsClientRetries('PUT', `${base}/lessons/order`, { token: ann.token, body: { lessonIds: [vimeo.body.id, text.body.id, youtube.body.id] } });
    expect(reordered.status).toBe(200);
    expect(reordered.body.lessons.map((l: { title: string }) => l.title)).toEqual(['Again', 'Grip', 'Watch']);

    const edited = await api('PATCH', `${base}/lessons/${text.body.id}`, { token: ann.token, body: { title: 'Grip, again', body: '<p>Claw grip.</p>' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Grip, again', body: '<p>Claw grip.</p>', position: 1 });

    const deletedLesson = await api('DELETE', `${base}/lessons/${youtube.body.id}`, { token: ann.token });
    expect(deletedLesson.status).toBe(200);

    const published = await api('PATCH', base, { token: ann.token, body: { status: 'published', title: 'Knife skills 101' } });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', title: 'Knife skills 101', lessonCount: 2 });
    expect(published.body.lessons.map((l: { title: string; position: number }) => [l.title, l.position])).toEqual([['Again', 0], ['Grip, again', 1]]);

    const listed = await api('GET', '/api/courses', { token: ann.token });
    expect(listed.body.items.find((c: { id: string }) => c.id === course.id)).toMatchObject({ title: 'Knife skills 101', status: 'published', lessonCount: 2 });

    expect((await api('DELETE', base, { token: ann.token })).status).toBe(200);
    expect((await api('GET', base, { token: ann.token })).status).toBe(404);
    // The course item at once; its lessons by the 'course-changed' run the delete started.
    await emptied(course.id);
    expect((await stats(ann.id)).courses).toBe(startStats.courses);
  });

  it('deleting a course deletes its enrolments (by the run it starts) and takes them out of the creator\'s counters', async () => {
    const course = await newCourse(ann.token, 'With learners');
    useLocalCloudEnv();
    const enrolment = (learnerId: string, completedAt: string | null) =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { pk: `COURSE#${course.id}`, sk: `ENROLL#${learnerId}`, type: 'Enrollment', courseId: course.id, learnerId, creatorId: ann.id, status: 'active', completedAt },
        }),
      );
    // The creator's figures follow the enrolments from the table's stream (decision 0040): in, then out with the course.
    const before = await counted(() => stats(ann.id));
    await enrolment('learner-a', '2026-11-21T12:00:00.000Z');
    await enrolment('learner-b', null);
    expect(await counted(() => stats(ann.id))).toEqual({ ...before, students: before.students + 2, completions: before.completions + 1 });
    expect((await api('DELETE', `/api/courses/${course.id}`, { token: ann.token })).status).toBe(200);
    await emptied(course.id);
    expect(await counted(() => stats(ann.id))).toEqual({ ...before, courses: before.courses - 1 });
  });

  it('refuses a video URL that is not YouTube, Vimeo or an https .mp4/.webm (400), writing nothing', async () => {
    const course = await newCourse(ann.token);
    for (const videoUrl of ['https://evil.example/watch?v=dQw4w9WgXcQ', 'http://youtu.be/dQw4w9WgXcQ', 'javascript:alert(1)', 'https://example.com/movie.avi']) {
      const res = await api('POST', `/api/courses/${course.id}/lessons`, { token: ann.token, body: { title: 'Bad', kind: 'video', videoUrl } });
      expect(res.status, videoUrl).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const ok = await api('POST', `/api/courses/${course.id}/lessons`, { token: ann.token, body: { title: 'File', kind: 'video', videoUrl: 'https://cdn.example.com/a.mp4' } });
    expect(ok.status).toBe(201);
    expect((await api('GET', `/api/courses/${course.id}`, { token: ann.token })).body.lessons).toHaveLength(1);
  });

  it('prices a course in pence (0 = not for sale), refusing what is not a price, and lists it with its prices', async () => {
    const course = await newCourse(ann.token, 'Priced');
    expect(course).toMatchObject({ priceAmount: 0, seatPriceAmount: 0 });
    const priced = await api('PATCH', `/api/courses/${course.id}`, { token: ann.token, body: { priceAmount: 2900, seatPriceAmount: 2000 } });
    expect(priced.status).toBe(200);
    expect(priced.body).toMatchObject({ priceAmount: 2900, seatPriceAmount: 2000, title: 'Priced' });
    for (const body of [{ priceAmount: 29.5 }, { priceAmount: -1 }, { priceAmount: 29 }, { seatPriceAmount: 1_000_001 }, { priceAmount: '2900' }]) {
      const res = await api('PATCH', `/api/courses/${course.id}`, { token: ann.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await api('PATCH', `/api/courses/${course.id}`, { token: ann.token, body: { priceAmount: 0 } })).body).toMatchObject({ priceAmount: 0, seatPriceAmount: 2000 });
    const listed = (await api('GET', '/api/courses', { token: ann.token })).body.items.find((c: { id: string }) => c.id === course.id);
    expect(listed).toMatchObject({ priceAmount: 0, seatPriceAmount: 2000 });
  });

  it('saves lesson bodies full of XSS payloads with nothing matching FORBIDDEN_HTML', async () => {
    const course = await newCourse(ann.token);
    const hostile = `<h2>Safe heading</h2>${xssPayloads.join('\n')}`;
    const created = await api('POST', `/api/courses/${course.id}/lessons`, { token: ann.token, body: { title: 'Hostile', kind: 'text', body: hostile } });
    expect(created.status).toBe(201);
    expect(created.body.body).toContain('<h2>Safe heading</h2>');
    expect(created.body.body).not.toMatch(FORBIDDEN_HTML);
    for (const payload of xssPayloads) {
      const edited = await api('PATCH', `/api/courses/${course.id}/lessons/${created.body.id}`, { token: ann.token, body: { body: `<p>x</p>${payload}` } });
      expect(edited.status, payload).toBe(200);
      expect(edited.body.body, payload).not.toMatch(FORBIDDEN_HTML);
    }
    const stored = (await partition(course.id)).filter((item) => String(item['sk']).startsWith('LESSON#'));
    for (const item of stored) expect(String(item['body'])).not.toMatch(FORBIDDEN_HTML);
  });
});

describe('another creator (IDOR)', () => {
  it('gets 404 on every course and lesson route of a course not theirs, and nothing changes', async () => {
    const course = await newCourse(ann.token, 'Ann only');
    const lesson = await api('POST', `/api/courses/${course.id}/lessons`, { token: ann.token, body: { title: 'Grip', kind: 'text', body: '<p>Hold it.</p>' } });
    const base = `/api/courses/${course.id}`;
    const itemsBefore = await partition(course.id);
    const statsBefore = await stats(ann.id);

    const attempts: [string, string, unknown?][] = [
      ['GET', base],
      ['PATCH', base, { title: 'Bob owns this', status: 'published' }],
      ['PATCH', base, { priceAmount: 100 }],
      ['DELETE', base],
      ['POST', `${base}/lessons`, { title: 'Injected', kind: 'text', body: '<p>hi</p>' }],
      ['PATCH', `${base}/lessons/${lesson.body.id}`, { title: 'Changed' }],
      ['DELETE', `${base}/lessons/${lesson.body.id}`],
      ['PUT', `${base}/lessons/order`, { lessonIds: [lesson.body.id] }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api(method, path, { token: bob.token, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: 'Course not found.' });
    }
    expect((await api('GET', '/api/courses', { token: bob.token })).body.items.map((c: { id: string }) => c.id)).not.toContain(course.id);
    expect(await partition(course.id)).toEqual(itemsBefore);
    expect(await stats(ann.id)).toEqual(statsBefore);
    // The same answer as for a course that does not exist.
    expect((await api('GET', '/api/courses/no-such-course', { token: bob.token })).body.error).toEqual({ code: 'NOT_FOUND', message: 'Course not found.' });
  });
});

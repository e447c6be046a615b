import { beforeAll, describe, expect, it } from 'vitest';
import { readCreatorStats } from '#data/courses.ts';
import { firstSignIn, mailTo } from './mail-support.ts';
import { accountWithRole, api, counted, outputs, uniqueEmail, useLocalCloudEnv } from './support.ts';

/** Enrolment by invitation end to end: the gateway, the handlers, DynamoDB Local, cognito-local and SES local. */

type Account = Awaited<ReturnType<typeof accountWithRole>>;

/** The creator's learner counters, as the dashboard reads them. */
/**
 * The creator's figures as the CRM reads them: one that no counted write has moved (or whose moves cancelled out in
 * one batch of the stream, an enrolment and its removal) is 0.
 */
const creatorStats = async (creatorId: string) => {
  useLocalCloudEnv();
  const item = await readCreatorStats(creatorId, { consistent: true });
  return { students: item['students'] ?? 0, completions: item['completions'] ?? 0 };
};

/** A published course of `creator` with two text lessons. */
const publishedCourse = async (creator: Account, title: string) => {
  const created = await api('POST', '/api/courses', { token: creator.token, body: { title, description: 'A course.' } });
  expect(created.status).toBe(201);
  const courseId = created.body.id as string;
  const lessonIds: string[] = [];
  for (const name of ['One', 'Two']) {
    const lesson = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: name, kind: 'text', body: `<p>${name}</p>` } });
    expect(lesson.status).toBe(201);
    lessonIds.push(lesson.body.id as string);
  }
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
  return { courseId, lessonIds };
};

describe('enrolment by invitation', () => {
  let creator: Account;
  let other: Account;
  let course: { courseId: string; lessonIds: string[] };
  const title = 'Knife Skills <for beginners>';
  const email = uniqueEmail('invited');
  let learnerId: string;
  let learnerToken: string;

  beforeAll(async () => {
    creator = await accountWithRole('creator');
    other = await accountWithRole('creator', 'other-creator');
    course = await publishedCourse(creator, title);
  });

  const enrollmentsPath = () => `/api/courses/${course.courseId}/enrollments`;
  const learnerCourse = (token = learnerToken) => api('GET', `/api/learner/courses/${course.courseId}`, { token });

  it('invites a new email: 201 invited, the mail lands in SES with the course and a temporary password', async () => {
    const res = await api('POST', enrollmentsPath(), { token: creator.token, body: { email: email.toUpperCase() } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, invited: true });
    learnerId = res.body.learnerId as string;

    const mail = await mailTo(email);
    expect(mail, `a mail to ${email} in the SES store`).toBeDefined();
    expect(mail!.subject).toBe("You're invited to a course on Course Platform");
    expect(mail!.body.text).toContain(`${outputs().WebUrl}/auth/login`);
    expect(mail!.body.html).toContain('Knife Skills &lt;for beginners&gt;');
  });

  it('lets the invited learner sign in with the temporary password, choose their own, and see the course', async () => {
    const text = (await mailTo(email))!.body.text!;
    const temporary = /Temporary password: (\S+)/.exec(text)?.[1];
    expect(temporary).toBeDefined();
    learnerToken = await firstSignIn(email, temporary!, 'MyOwnPassw0rd');

    const mine = await api('GET', '/api/learner/courses', { token: learnerToken });
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([expect.objectContaining({ courseId: course.courseId, title, progress: 0, completedAt: null })]);
    const detail = await learnerCourse();
    expect(detail.status).toBe(200);
    expect(detail.body.lessons.map((l: { title: string; completed: boolean }) => [l.title, l.completed])).toEqual([['One', false], ['Two', false]]);
  });

  it('refuses to invite the enrolled learner again (409)', async () => {
    const res = await api('POST', enrollmentsPath(), { token: creator.token, body: { email } });
    expect(res.status).toBe(409);
  });

  it('answers 404 to a learner who is not enrolled', async () => {
    const stranger = await accountWithRole('learner', 'stranger');
    expect((await learnerCourse(stranger.token)).status).toBe(404);
    const complete = await api('POST', `/api/learner/courses/${course.courseId}/lessons/${course.lessonIds[0]}/complete`, { token: stranger.token, body: {} });
    expect(complete.status).toBe(404);
  });

  it('moves progress when a lesson is completed, once however often it is sent', async () => {
    const path = `/api/learner/courses/${course.courseId}/lessons/${course.lessonIds[0]}/complete`;
    const first = await api('POST', path, { token: learnerToken, body: { timeZone: 'Europe/London' } });
    expect(first).toMatchObject({ status: 200, body: { progress: 50, completedAt: null } });
    expect((await api('POST', path, { token: learnerToken, body: {} })).body).toEqual({ progress: 50, completedAt: null });
    // A bare POST (no body, no Content-Type), as a client sends an action with no fields.
    expect(await api('POST', path, { token: learnerToken })).toEqual({ status: 200, body: { progress: 50, completedAt: null } });

    const list = await api('GET', enrollmentsPath(), { token: creator.token });
    expect(list.body.items).toEqual([expect.objectContaining({ learnerId, email, progress: 50 })]);
    const summary = await api('GET', '/api/learner/summary?timeZone=Europe/London', { token: learnerToken });
    expect(summary.body).toMatchObject({ enrolled: 1, completed: 0, certificates: 0, studyStreak: 1 });
  });

  it('gives another creator 404 on every enrolment route, and writes nothing', async () => {
    expect((await api('POST', enrollmentsPath(), { token: other.token, body: { email: uniqueEmail('idor') } })).status).toBe(404);
    expect((await api('GET', enrollmentsPath(), { token: other.token })).status).toBe(404);
    expect((await api('DELETE', `${enrollmentsPath()}/${learnerId}`, { token: other.token })).status).toBe(404);
    const list = await api('GET', enrollmentsPath(), { token: creator.token });
    expect(list.body.items.map((e: { learnerId: string }) => e.learnerId)).toEqual([learnerId]);
    expect((await learnerCourse()).status).toBe(200);
  });

  it('removes the learner (they lose the course) and re-enrolling brings their progress back', async () => {
    expect((await api('DELETE', `${enrollmentsPath()}/${learnerId}`, { token: creator.token })).status).toBe(204);
    expect((await learnerCourse()).status).toBe(404);
    expect((await api('GET', '/api/learner/courses', { token: learnerToken })).body.items).toEqual([]);
    expect((await api('GET', enrollmentsPath(), { token: creator.token })).body.items).toEqual([]);
    // The enrolments' figures come from the table's stream (decision 0040): read once it has counted the removal.
    expect(await counted(() => creatorStats(creator.id))).toMatchObject({ students: 0 });
    expect((await api('GET', `/api/courses/${course.courseId}`, { token: creator.token })).body.enrolledCount).toBe(0);

    const again = await api('POST', enrollmentsPath(), { token: creator.token, body: { email } });
    expect(again).toMatchObject({ status: 201, body: { learnerId, invited: false } });
    const detail = await learnerCourse();
    expect(detail.body.progress).toBe(50);
    expect(detail.body.lessons.map((l: { completed: boolean }) => l.completed)).toEqual([true, false]);
    expect(await counted(() => creatorStats(creator.id))).toMatchObject({ students: 1 });
    expect((await api('GET', `/api/courses/${course.courseId}`, { token: creator.token })).body.enrolledCount).toBe(1);
  });

  it('shows the learner a course’s new title', async () => {
    expect((await api('PATCH', `/api/courses/${course.courseId}`, { token: creator.token, body: { title: 'Knife Skills II' } })).status).toBe(200);
    expect((await api('GET', '/api/learner/courses', { token: learnerToken })).body.items.map((c: { title: string }) => c.title)).toEqual(['Knife Skills II']);
  });

  it('hides a course its creator unpublished from its learners (404)', async () => {
    expect((await api('PATCH', `/api/courses/${course.courseId}`, { token: creator.token, body: { status: 'draft' } })).status).toBe(200);
    expect((await learnerCourse()).status).toBe(404);
  });
});

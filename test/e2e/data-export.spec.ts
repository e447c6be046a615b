import { unzip } from '../functions/fakes/unzip.ts';
import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 37 point 1 in the browser: a learner asks for their data from their profile, watches it being prepared, and
// the emailed link brings down a ZIP holding their enrolment and their quiz attempt.

test('a learner downloads their data and finds their enrolment and quiz attempt in the ZIP', async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'export-creator');
  const learner = await createTestAccount(cloud, 'learner', 'export-learner');
  const creatorToken = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, creatorToken, 'POST', '/api/courses', { title: `Colour theory ${Date.now()}` });
  const quiz = { passPercent: 100, maxAttempts: null, shuffle: false, questions: [{ prompt: 'Which colour is warm?', type: 'single', options: ['Blue', 'Orange'], correct: [1] }] };
  const lesson = await api<{ id: string }>(cloud, creatorToken, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Check yourself', kind: 'quiz', quiz });
  await api(cloud, creatorToken, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  await api(cloud, creatorToken, 'POST', `/api/courses/${course.id}/enrollments`, { email: learner.email });
  const learnerToken = await accessToken(cloud, learner.email, learner.password);
  await api(cloud, learnerToken, 'POST', `/api/learner/courses/${course.id}/lessons/${lesson.id}/attempts`, { answers: [[0]] });

  await signIn(page, learner.email, learner.password);
  await expect(page).toHaveURL(/\/dashboard\/learner$/);
  await page.goto('/dashboard/learner/profile');
  await page.getByRole('button', { name: 'Download my data' }).click();
  await expect(page.getByTestId('your-data-status')).toContainText(/Preparing your data|Your data is ready/);
  await expect(page.getByTestId('your-data-status')).toContainText('Your data is ready.', { timeout: 90_000 });
  await expect(page.getByRole('link', { name: 'Download ZIP' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'your-data-ready');

  // The emailed link, as the learner would open it from their inbox.
  await expect.poll(async () => (await mailsTo(cloud, learner.email)).map((m) => m.subject), { timeout: 60_000 }).toContainEqual(expect.stringContaining('your data is ready to download'));
  const mail = (await mailsTo(cloud, learner.email)).find((m) => m.subject.includes('your data is ready to download'))!;
  const link = /https?:\/\/\S+\.zip\S*/.exec(mail.body.text ?? '')?.[0];
  expect(link, 'the email carries the download link').toBeDefined();
  const res = await fetch(link!);
  expect(res.status).toBe(200);
  const files = unzip(new Uint8Array(await res.arrayBuffer()));
  const enrolments = JSON.parse(files.get('enrolments.json')!.toString('utf8')) as unknown;
  expect(JSON.stringify(enrolments)).toContain(course.id);
  const attempts = files.get(`quiz-attempts/${course.id}.json`);
  expect(attempts, `quiz-attempts/${course.id}.json in ${[...files.keys()].join(', ')}`).toBeDefined();
  expect(attempts!.toString('utf8')).toContain(lesson.id);
  // Nobody else's: the learner's own email only.
  expect(files.get('account.json')!.toString('utf8')).toContain(learner.email);
  expect(files.get('account.json')!.toString('utf8')).not.toContain(creator.email);
});

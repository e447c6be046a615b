import { accessToken, api, mailsTo, signIn, startJob } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Drip release (issue 33 part 1) in a real browser: the creator sets a lesson to open days after enrolment in the lesson
// dialog and sees it in the outline; a learner sees a lesson dated seconds ahead locked with its opening date and none
// of its content, watches it open on time in the player, and gets one "A new lesson is ready" email (the drip-due job
// runs every minute). Screenshots at 1280 px and 375 px.

const OPENS_IN_MS = 35_000;

test('a drip lesson is locked for a learner, opens on time in the player, and its email arrives once', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(240_000);
  const creator = await createTestAccount(cloud, 'creator', 'drip-creator');
  const learner = await createTestAccount(cloud, 'learner', 'drip-learner');
  const token = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: 'Watercolour weeks', description: 'One lesson a week.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Your first wash', kind: 'text', body: '<p>Brushes and paper.</p>' });
  const opensAt = new Date(Date.now() + OPENS_IN_MS).toISOString();
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Wet on wet', kind: 'text', body: '<p>Now wet the paper.</p>', release: { kind: 'date', at: opensAt } });

  // The creator adds a third lesson that opens a week after each learner's enrolment, in the lesson dialog.
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto(`/dashboard/creator/courses/${course.id}`);
  await page.getByRole('button', { name: 'Add lesson' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add lesson' });
  await dialog.getByLabel('Lesson title').fill('Glazing');
  await dialog.getByLabel('Lesson text').fill('Layer the colours.');
  await dialog.getByLabel('Opens', { exact: true }).selectOption({ label: 'Days after enrolment' });
  await dialog.getByLabel('Days after enrolment').fill('7');
  await checkAndShoot(page, testInfo, 'drip-lesson-dialog', { dialog });
  await dialog.getByRole('button', { name: 'Add lesson' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Opens 7 days after enrolment')).toBeVisible();
  await checkAndShoot(page, testInfo, 'drip-outline');
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: learner.email });

  // The learner: the dated lesson is listed locked with its date, and shows only that.
  const learnerPage = await (await browser.newContext()).newPage();
  await signIn(learnerPage, learner.email, learner.password);
  await expect(learnerPage).toHaveURL(/\/dashboard\/learner$/);
  await learnerPage.getByRole('link', { name: 'Continue Watercolour weeks' }).click();
  await expect(learnerPage.getByRole('heading', { level: 2, name: 'Your first wash' })).toBeVisible();
  const lessons = learnerPage.getByRole('navigation', { name: 'Lessons' });
  await expect(lessons.getByRole('link', { name: /^3\. Glazing, locked until / })).toBeVisible();
  await lessons.getByRole('link', { name: /^2\. Wet on wet, locked until / }).click();
  await expect(learnerPage.getByTestId('lesson-locked')).toContainText('This lesson is locked');
  await expect(learnerPage.getByText('Now wet the paper.')).toBeHidden();
  expect(Date.now(), 'the locked lesson was seen before its time').toBeLessThan(Date.parse(opensAt));
  await checkAndShoot(learnerPage, testInfo, 'drip-player-locked');

  // It opens on time, without a reload.
  await expect(learnerPage.getByText('Now wet the paper.')).toBeVisible({ timeout: OPENS_IN_MS + 15_000 });
  expect(Date.now(), 'not before its time').toBeGreaterThanOrEqual(Date.parse(opensAt));
  await expect(learnerPage.getByTestId('lesson-locked')).toBeHidden();

  // One email, from the drip-due job's run (started now, besides its runs every minute: still one email).
  const ready = async () => (await mailsTo(cloud, learner.email)).filter((mail) => mail.subject === 'A new lesson is ready');
  await startJob(cloud, 'drip-due');
  await expect.poll(async () => (await ready()).length, { timeout: 90_000, intervals: [1_000] }).toBeGreaterThan(0);
  const mails = await ready();
  expect(mails).toHaveLength(1);
  expect(mails[0]!.body.text).toContain('Wet on wet');
});

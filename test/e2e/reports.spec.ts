import type { Page } from '@playwright/test';
import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 29 point 3 in a real browser against the local cloud: a Pro creator's Reports page (no learners yet, then the
// figures, funnel and quiz table after learners work through the course), an export downloaded, the loading and error
// states, and a Starter creator's PLAN_REQUIRED state; each screenshotted at 1280 and 375 px.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

test('a Pro creator follows learners through a course on the Reports page and downloads an export', async ({ page, cloud }, testInfo) => {
  test.setTimeout(240_000);
  // A creator on Pro (createTestAccount's default plan).
  const creator = await createTestAccount(cloud, 'creator', 'reports-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  const title = `Knife skills ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Safe and quick.' });
  const lessons: string[] = [];
  for (const name of ['Holding the knife', 'The claw grip', 'Dicing an onion']) {
    lessons.push((await api<{ id: string }>(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: name, kind: 'text', body: `<p>${name}.</p>` })).id);
  }
  const quiz = {
    passPercent: 100,
    questions: [
      { prompt: 'Which grip keeps fingertips safe?', type: 'single', options: ['The claw', 'The pinch'], correct: [0] },
      { prompt: 'Which knife for bread?', type: 'single', options: ['Paring', 'Serrated'], correct: [1] },
    ],
  };
  const quizId = (await api<{ id: string }>(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Safety check', kind: 'quiz', quiz })).id;
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });

  await signIn(page, creator.email, creator.password);
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/reports/);
  await expect(page.getByRole('heading', { name: 'No learners yet' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'reports-no-learners');

  // Five learners: each goes a little further than the one before; two take the quiz (one fails first).
  for (let n = 0; n < 5; n++) {
    const learner = await createTestAccount(cloud, 'learner', `reports-learner-${n}`);
    await api(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: learner.email });
    const lt = await accessToken(cloud, learner.email, learner.password);
    for (const lessonId of lessons.slice(0, n)) {
      await api(cloud, lt, 'GET', `/api/learner/courses/${course.id}/lessons/${lessonId}`);
      await api(cloud, lt, 'POST', `/api/learner/courses/${course.id}/lessons/${lessonId}/complete`, {});
    }
    if (n >= 3) {
      if (n === 3) await api(cloud, lt, 'POST', `/api/learner/courses/${course.id}/lessons/${quizId}/attempts`, { answers: [[0], [0]] });
      await api(cloud, lt, 'POST', `/api/learner/courses/${course.id}/lessons/${quizId}/attempts`, { answers: [[0], [1]] });
    }
  }

  await page.reload();
  const figure = (label: string) => page.getByRole('heading', { name: label, exact: true }).locator('xpath=../..');
  await expect(figure('Enrolled')).toContainText('5');
  await expect(figure('Started')).toContainText('4');
  await expect(figure('Completed')).toContainText('2');
  await expect(figure('Completion rate')).toContainText('40%');
  const funnel = page.getByRole('list', { name: 'Lesson funnel' });
  await expect(funnel.getByRole('listitem').nth(0)).toContainText('Reached 4 · Completed 4');
  await expect(funnel.getByRole('listitem').nth(2)).toContainText('Reached 2 · Completed 2');
  await expect(funnel.getByRole('listitem').nth(1)).toContainText('1 fewer than the lesson before');
  await expect(page.getByText('Attempts 3 · Pass rate 67%')).toBeVisible();
  await checkAndShoot(page, testInfo, 'reports-course');

  // Keyboard: the course picker opens and closes from the keyboard; the export buttons are reachable by Tab.
  await page.getByRole('combobox', { name: 'Course' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('option', { name: title })).toBeVisible();
  await page.keyboard.press('Escape');
  const learnersExport = page.getByRole('button', { name: 'Exports: Learners (CSV)' });
  await learnersExport.focus();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Export ready')).toContainText('Learners: 5 rows downloaded.');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^learners-\d{4}-\d{2}-\d{2}\.csv$/);

  // The loading state (the report held back) and the error state (the report failing), as the creator would see them.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/creator/reports/courses/**', async (route) => {
    await held;
    // The page may have moved on meanwhile (the next reload): then the held request is gone, and that is fine.
    await route.continue().catch(() => undefined);
  });
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Loading the report…' })).toBeAttached();
  await checkAndShoot(page, testInfo, 'reports-loading');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  release();
  await page.route('**/api/creator/reports/courses/**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Something went wrong.' } }) }));
  await page.reload();
  await expect(page.getByRole('alert')).toContainText("This course's report could not be loaded.", { timeout: 20_000 });
  await checkAndShoot(page, testInfo, 'reports-error');
});

test("a Starter creator's Reports page says reports are part of Pro", async ({ page, cloud }, testInfo) => {
  test.setTimeout(120_000);
  const creator = await createTestAccount(cloud, 'creator', 'reports-starter', { plan: 'starter' });
  const token = await accessToken(cloud, creator.email, creator.password);
  await api(cloud, token, 'POST', '/api/courses', { title: 'Starter course', description: 'On the trial.' });
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto('/dashboard/creator/reports');
  await expect(page.getByRole('heading', { name: 'Reports are part of Pro' })).toBeVisible();
  // The upgrade path (issue 29's shared lock): Pro through the billing portal for a subscriber.
  await expect(page.getByRole('complementary', { name: 'Course Platform navigation' }).getByRole('link', { name: 'Reports Pro' })).toBeVisible();
  await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await expect(page.getByRole('dialog', { name: 'Upgrade to Pro' })).toContainText('Detailed reports and exports come with the Pro plan');
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('button', { name: /^Exports:/ })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'reports-plan-required');
});

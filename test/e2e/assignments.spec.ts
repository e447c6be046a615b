import { readFileSync } from 'node:fs';
import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 35 point 2 in the browser: a creator adds an assignment lesson in the course editor and publishes; an enrolled
// learner hands in text and a photo of the work; the creator downloads it and asks for a revision from Submissions; the learner reads the feedback and hands
// in again; the creator passes it, and the learner's lesson counts as complete.

const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test('a learner hands in an assignment, revises it when asked, and passes', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'assign-creator');
  const learner = await createTestAccount(cloud, 'learner', 'assign-learner');
  const token = await accessToken(cloud, creator.email, creator.password);
  const title = `Watercolour washes ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Flat and graded washes.' });

  // The creator writes the assignment in the editor, with its preview, and publishes the course.
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto(`/dashboard/creator/courses/${course.id}`);
  await page.getByRole('button', { name: 'Add lesson' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add lesson' });
  await dialog.getByLabel('Lesson title').fill('Paint a flat wash');
  await dialog.getByRole('radio', { name: 'Assignment' }).check();
  await dialog.getByRole('checkbox', { name: /Accept files/ }).check();
  await dialog.getByLabel('Instructions').fill('## Your task\n\nPaint a **flat** wash and describe how it dried.\n\n- Use one colour\n- Work quickly');
  await expect(dialog.getByRole('region', { name: 'Instructions preview' }).getByRole('heading', { name: 'Your task' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'assignment-editor', { dialog });
  await dialog.getByRole('button', { name: 'Add lesson' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('lesson-kind')).toHaveText('Assignment · files accepted');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published: enrolled learners can take this course.')).toBeVisible();
  await api(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: learner.email });

  // The learner reads the instructions and hands in their answer.
  const learnerContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const player = await learnerContext.newPage();
  await signIn(player, learner.email, learner.password);
  await expect(player).toHaveURL(/\/dashboard\/learner$/);
  await player.goto(`/dashboard/learner/courses/${course.id}`);
  await expect(player.getByRole('region', { name: 'Instructions' }).getByRole('heading', { name: 'Your task' })).toBeVisible();
  await expect(player.getByRole('button', { name: 'Mark complete' })).toHaveCount(0);
  await player.getByRole('textbox', { name: 'Your answer' }).fill('I painted it in one go <b>and</b> it dried patchy.');
  // A photo of the work, uploaded as soon as it is picked.
  await player.getByLabel('Files to hand in').setInputFiles({ name: 'flat-wash.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
  await expect(player.getByTestId('picked-file')).toContainText('flat-wash.png');
  await expect(player.getByTestId('picked-file')).toContainText('uploaded');
  await checkAndShoot(player, testInfo, 'assignment-learner-file');
  await player.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(player.getByTestId('submission-status')).toHaveText('Waiting for review');
  await expect(player.getByRole('region', { name: 'Files handed in' })).toContainText('flat-wash.png');
  await checkAndShoot(player, testInfo, 'assignment-learner-waiting');

  // The creator opens it from Submissions and asks for a revision: feedback first.
  await page.getByRole('link', { name: 'Submissions' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/submissions$/);
  const row = page.getByTestId('submission-row').filter({ hasText: learner.email });
  await expect(row).toContainText('Paint a flat wash');
  await expect(row).toContainText(title);
  await checkAndShoot(page, testInfo, 'submissions-queue');
  await row.getByRole('button', { name: /^Open the submission/ }).click();
  const sheet = page.getByRole('dialog');
  await expect(sheet.getByTestId('submission-text')).toHaveText('I painted it in one go <b>and</b> it dried patchy.');
  // The photo comes down as a file, byte for byte (served as an attachment, never shown inline).
  const downloading = page.waitForEvent('download');
  await sheet.getByRole('button', { name: 'Download flat-wash.png' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('flat-wash.png');
  expect(readFileSync((await download.path())!).equals(ONE_PIXEL_PNG)).toBe(true);
  await sheet.getByRole('button', { name: 'Ask for revision' }).click();
  await expect(sheet.getByText('Say what the learner should change.')).toBeVisible();
  await sheet.getByLabel('Feedback for the learner').fill('Wet the paper evenly first, then try again.');
  await checkAndShoot(page, testInfo, 'submission-open', { sheet });
  await sheet.getByRole('button', { name: 'Ask for revision' }).click();
  await expect(sheet.getByText(`We emailed ${learner.email}.`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Nothing is waiting for review.', { exact: false })).toBeVisible();
  await expect.poll(async () => (await mailsTo(cloud, learner.email)).map((m) => m.subject), { timeout: 60_000 }).toContain('Your assignment needs a revision');

  // The learner reads the feedback and hands in a revised answer.
  await player.reload();
  await expect(player.getByTestId('submission-status')).toHaveText('Needs revision');
  await expect(player.getByTestId('submission-feedback')).toHaveText('Wet the paper evenly first, then try again.');
  await checkAndShoot(player, testInfo, 'assignment-learner-revision');
  await player.getByRole('textbox', { name: 'Your revised answer' }).fill('I wet the paper evenly first: the wash dried flat.');
  await player.getByRole('button', { name: 'Submit again' }).click();
  await expect(player.getByTestId('submission-status')).toHaveText('Waiting for review');

  // The creator passes it.
  await page.reload();
  await page.getByTestId('submission-row').filter({ hasText: learner.email }).getByRole('button', { name: /^Open the submission/ }).click();
  await expect(sheet.getByTestId('submission-text')).toHaveText('I wet the paper evenly first: the wash dried flat.');
  await sheet.getByRole('button', { name: 'Mark as passed' }).click();
  await expect(sheet.getByText(`We emailed ${learner.email}.`)).toBeVisible();
  await expect(sheet.getByTestId('submission-status')).toHaveText('Passed');

  // The learner sees it passed and the lesson completed.
  await player.reload();
  await expect(player.getByTestId('submission-status')).toHaveText('Passed');
  await expect(player.getByText('Completed', { exact: true })).toBeVisible();
  await expect(player.getByRole('link', { name: '1. Paint a flat wash, completed' })).toBeVisible();
  await expect(player.getByTestId('course-progress')).toHaveText('100% complete');
  await checkAndShoot(player, testInfo, 'assignment-learner-passed');
  await learnerContext.close();
});

import { copyFileSync, mkdirSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// "Delete my account" (issue 37 point 2) in a real browser against the local cloud: a learner deletes their account
// from their profile and cannot sign in again; a creator with a learner on a published course is refused, with the
// course named, and stays signed in.

type Cloud = Parameters<typeof createTestAccount>[0];

/** A creator's published course with `learnerEmail` enrolled on it, through the API. */
async function publishedCourseWithLearner(cloud: Cloud, creator: { email: string; password: string }, title: string, learnerEmail: string): Promise<string> {
  const token = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Shapes and tension.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'The first fold', kind: 'text', body: '<p>Fold it.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: learnerEmail });
  return token;
}

/** The profile's "Delete my account": the dialog opened, DELETE typed, confirmed. */
async function deleteFromProfile(page: Page, testInfo: TestInfo, shot?: string) {
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
  await expect(dialog).toContainText('cannot sign in again');
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  if (shot) await checkAndShoot(page, testInfo, shot, { dialog });
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  return dialog;
}

/** The screenshots, also where the engineer looks at them (.shots/ is not committed). */
function keepShots(testInfo: TestInfo, names: string[]) {
  mkdirSync('.shots', { recursive: true });
  for (const name of names) for (const width of [1280, 375]) copyFileSync(testInfo.outputPath(`${name}-${width}.png`), `.shots/${name}-${width}.png`);
}

test('a learner deletes their account from their profile and cannot sign in again', async ({ page, cloud }, testInfo) => {
  const creator = await createTestAccount(cloud, 'creator', 'erase-e2e-creator');
  const learner = await createTestAccount(cloud, 'learner', 'erase-e2e-learner');
  const creatorToken = await publishedCourseWithLearner(cloud, creator, 'Origami for adults', learner.email);

  await signIn(page, learner.email, learner.password);
  await expect(page).toHaveURL(/\/dashboard\/learner$/);
  await page.goto('/dashboard/learner/profile');
  await expect(page.getByRole('heading', { name: 'Delete my account' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'delete-account-profile');
  await deleteFromProfile(page, testInfo, 'delete-account-dialog');

  await expect(page).toHaveURL(/\/auth\/login\?accountDeleted=1$/);
  await expect(page.getByText('You have been signed out and your account is being deleted.')).toBeVisible();
  await checkAndShoot(page, testInfo, 'delete-account-signed-out');

  // Sign-in is refused at once (disabled), and stays refused once the run has deleted the account.
  await signIn(page, learner.email, learner.password);
  await expect(page.getByText('Sign in failed')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect
    .poll(() => accessToken(cloud, learner.email, learner.password).then(() => 'signed in', (error: unknown) => String(error)), { timeout: 30_000 })
    .not.toBe('signed in');
  // The creator's learners no longer hold the email, once the run has gone through the enrolment.
  await expect
    .poll(async () => JSON.stringify(await api(cloud, creatorToken, 'GET', '/api/crm/learners')), { timeout: 30_000 })
    .not.toContain(learner.email);

  keepShots(testInfo, ['delete-account-profile', 'delete-account-dialog', 'delete-account-dialog-dialog', 'delete-account-signed-out']);
});

test('a creator with a learner on a published course is refused, told which course to unpublish, and stays signed in', async ({ page, cloud }, testInfo) => {
  const creator = await createTestAccount(cloud, 'creator', 'erase-e2e-refused');
  const learner = await createTestAccount(cloud, 'learner', 'erase-e2e-enrolled');
  await publishedCourseWithLearner(cloud, creator, 'Paper cranes at home', learner.email);

  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator/);
  await page.goto('/dashboard/creator/profile');
  const dialog = await deleteFromProfile(page, testInfo);

  const refusal = dialog.getByRole('alert');
  await expect(refusal).toContainText('Your account was not deleted');
  await expect(refusal.getByRole('list', { name: 'Courses to unpublish' }).getByRole('listitem')).toHaveText(['Paper cranes at home']);
  await checkAndShoot(page, testInfo, 'delete-account-refused', { dialog });

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/creator\/profile$/);
  await expect(page.getByRole('heading', { name: 'Delete my account' })).toBeVisible();
  expect(await accessToken(cloud, creator.email, creator.password)).toBeTruthy();

  keepShots(testInfo, ['delete-account-refused', 'delete-account-refused-dialog']);
});

test("a group leader deletes their account from Settings; the creator's licence keeps its seats without the leader's email", async ({ page, cloud }, testInfo) => {
  const creator = await createTestAccount(cloud, 'creator', 'erase-e2e-licensor');
  const leader = await createTestAccount(cloud, 'leader', 'erase-e2e-leader');
  const token = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: 'Knots for teams', description: 'Ropes at work.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'The bowline', kind: 'text', body: '<p>Tie it.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/licenses`, { leaderEmail: leader.email, seats: 5 });

  await signIn(page, leader.email, leader.password);
  await expect(page).toHaveURL(/\/dashboard\/leader$/);
  await page.goto('/dashboard/leader/settings');
  await expect(page.getByRole('heading', { name: 'Delete my account' })).toBeVisible();
  await deleteFromProfile(page, testInfo, 'delete-account-leader-dialog');

  await expect(page).toHaveURL(/\/auth\/login\?accountDeleted=1$/);
  await expect(page.getByText('You have been signed out and your account is being deleted.')).toBeVisible();
  await expect
    .poll(() => accessToken(cloud, leader.email, leader.password).then(() => 'signed in', (error: unknown) => String(error)), { timeout: 30_000 })
    .not.toBe('signed in');
  // The licence stays (its seats are the creator's sale), under the pseudonym once the run has reached it.
  const licences = () => api<{ items: { leaderEmail: string; seatsTotal: number }[] }>(cloud, token, 'GET', `/api/courses/${course.id}/licenses`);
  await expect.poll(async () => JSON.stringify(await licences()), { timeout: 30_000 }).not.toContain(leader.email);
  expect((await licences()).items.map((l) => l.seatsTotal)).toEqual([5]);
});

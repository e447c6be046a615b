import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 14 in a real browser against the local cloud: a creator grants a team licence from the course editor; a
// business buys 3 seats on the course's public page and its buyer, invited as group leader, signs in, adds two
// members by email, removes one after a confirmation; a member takes a lesson and the leader sees the progress; a CSV
// file adds another (its duplicate and malformed rows each answered); the report shows the team and downloads the CSV;
// the leader turns the weekly email off in Settings.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

/** An invited account's first sign-in: the emailed temporary password, then a chosen one. */
const firstSignIn = async (page: Page, cloud: Parameters<typeof mailsTo>[0], email: string, subject: string, home: RegExp) => {
  await expect.poll(async () => (await mailsTo(cloud, email)).some((m) => m.subject === subject), { timeout: 30_000 }).toBe(true);
  const mail = (await mailsTo(cloud, email)).find((m) => m.subject === subject);
  const temporaryPassword = /Temporary password: (\S+)/.exec(mail?.body.text ?? '')?.[1];
  expect(temporaryPassword, `a temporary password in "${subject}"`).toBeDefined();
  await signIn(page, email, temporaryPassword!);
  await page.getByLabel('New password', { exact: true }).fill('Chosen1234');
  await page.getByLabel('Confirm new password').fill('Chosen1234');
  await page.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(page).toHaveURL(home);
};

test('a creator grants a licence; a business buys seats, its leader adds members, and sees a member take a lesson', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'licences-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  const title = `Fire safety ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Keep your team safe.' });
  for (const lesson of ['Exits', 'Extinguishers']) await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: lesson, kind: 'text', body: `<p>${lesson}.</p>` });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published', priceAmount: 2900, seatPriceAmount: 1500 });
  const onboarding = await api<{ url: string }>(cloud, token, 'POST', '/api/creator/payouts/connect', { returnUrl: `${cloud.WebUrl}/r`, refreshUrl: `${cloud.WebUrl}/f` });
  await fetch(onboarding.url);
  await fetch(`${onboarding.url}/complete`, { method: 'POST', redirect: 'manual' });
  await expect.poll(async () => (await api<{ status: string }>(cloud, token, 'GET', '/api/creator/payouts')).status, { timeout: 30_000 }).toBe('enabled');

  // The creator grants a licence sold outside the platform, from the course editor.
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto(`/dashboard/creator/courses/${course.id}`);
  const licences = page.getByRole('region', { name: 'Team licences' });
  await expect(licences).toContainText('No team licences yet.');
  await licences.getByRole('button', { name: 'Grant a licence' }).click();
  const grant = page.getByRole('dialog', { name: 'Grant a licence' });
  const granted = `granted-leader-${Date.now()}@example.com`;
  await grant.getByLabel(/^Leader email/).fill(granted);
  await grant.getByLabel(/^Seats/).fill('5');
  await grant.getByRole('button', { name: 'Grant licence' }).click();
  await expect(toast(page, 'Licence granted')).toBeVisible();
  await expect(licences).toContainText('0 of 5 seats used');
  await checkAndShoot(page, testInfo, 'licences-course-editor', { licences });

  // A business buys 3 seats on the public page; its buyer is invited as the group leader.
  const leader = `team-leader-${Date.now()}@example.com`;
  const visitorContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/c/${course.id}`);
  await visitor.getByText('Buy for a team').click();
  await expect(visitor.getByRole('radio', { name: 'Buy for a team' })).toBeChecked();
  await visitor.getByLabel(/^Seats/).fill('3');
  await visitor.getByLabel(/^Email/).fill(leader);
  await visitor.getByRole('button', { name: 'Buy for a team' }).click();
  await expect(visitor.locator('body')).toContainText('45.00');
  await visitor.getByRole('button', { name: 'Pay' }).click();
  await expect(visitor.getByTestId('purchase-confirmation')).toContainText('Payment received.');

  // The leader signs in, finds the licence, and adds two members (and a typo, refused before any request).
  await firstSignIn(visitor, cloud, leader, 'You lead a team on Course Platform', /\/dashboard\/leader$/);
  await visitor.goto('/dashboard/leader/licenses');
  await expect(visitor.getByRole('region', { name: 'Licenses' })).toContainText(title);
  await expect(visitor.getByRole('region', { name: 'Licenses' })).toContainText('0 of 3');
  await checkAndShoot(visitor, testInfo, 'licences-leader-licenses');
  await visitor.getByRole('link', { name: `Manage seats of ${title}` }).click();
  await expect(visitor).toHaveURL(/\/dashboard\/leader\/groups\?license=/);
  const [ann, bob] = [`ann-${Date.now()}@example.com`, `bob-${Date.now()}@example.com`];
  await visitor.getByLabel(/^Emails/).fill(`${ann}, ${bob}\nnot-an-email`);
  await visitor.getByRole('button', { name: 'Add members' }).click();
  const results = visitor.getByRole('list', { name: 'Results' });
  await expect(results).toContainText(`${ann}Added`, { timeout: 30_000 });
  await expect(results).toContainText(`${bob}Added`);
  await expect(results).toContainText('not-an-emailNot an email');
  const members = visitor.getByRole('region', { name: 'Members' });
  await expect(members).toContainText(ann);
  await expect(members).toContainText(bob);
  await checkAndShoot(visitor, testInfo, 'licences-leader-groups');

  // Bob is removed after a confirmation: his seat is free again.
  await visitor.getByRole('button', { name: `Remove ${bob}` }).click();
  await visitor.getByRole('alertdialog').getByRole('button', { name: 'Remove member' }).click();
  await expect(toast(visitor, 'Member removed')).toBeVisible();
  await expect(visitor.getByRole('button', { name: `Add ${bob} again` })).toBeVisible();

  // Ann, invited by the seat, takes the first lesson; the leader sees her at 50%.
  const annContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const annPage = await annContext.newPage();
  await firstSignIn(annPage, cloud, ann, "You're invited to a course on Course Platform", /\/dashboard\/learner$/);
  await annPage.getByRole('link', { name: `Continue ${title}` }).click();
  await annPage.getByRole('button', { name: 'Mark complete' }).click();
  await expect(annPage.getByTestId('course-progress')).toHaveText('50% complete');
  await annContext.close();
  await visitor.reload();
  await expect(visitor.getByRole('progressbar', { name: `${ann}: 50% complete` })).toBeVisible();

  // A CSV file: a new member, Ann again, the new one twice, and a malformed address: one result per row.
  const carl = `carl-${Date.now()}@example.com`;
  const csvRows = ['email,name', `${carl},Carl`, `${ann},Ann`, `${carl.toUpperCase()},Carl again`, 'dora@example,Dora'];
  await visitor.getByLabel('Choose a CSV file').setInputFiles({ name: 'team.csv', mimeType: 'text/csv', buffer: Buffer.from(csvRows.join('\r\n')) });
  await expect(visitor.getByText('4 emails from team.csv added to the list.')).toBeVisible();
  await visitor.getByRole('button', { name: 'Add members' }).click();
  await expect(results).toContainText(`${carl}Added`, { timeout: 30_000 });
  await expect(results).toContainText(`${ann}Already a member`);
  await expect(results).toContainText(`${carl}Duplicate`);
  await expect(results).toContainText('dora@exampleNot an email');
  await expect(members).toContainText(carl);

  // The report: every member with their progress, found by email, and the CSV download with Ann's lesson in it.
  await visitor.getByRole('link', { name: 'reports' }).click();
  await expect(visitor).toHaveURL(/\/dashboard\/leader\/reports$/);
  const report = visitor.getByRole('region', { name: 'Team report' });
  await expect(visitor.getByRole('progressbar', { name: `${ann} in ${title}: 50% complete` })).toBeVisible();
  await expect(report).toContainText(carl);
  await expect(report).toContainText(bob);
  await expect(visitor.getByText('Showing 3 members')).toBeVisible();
  await checkAndShoot(visitor, testInfo, 'licences-leader-reports');
  await visitor.getByLabel('Member email').fill(ann.slice(0, 8));
  await expect(visitor.getByText('Showing 1 member')).toBeVisible();
  await expect(report).not.toContainText(carl);
  const downloading = visitor.waitForEvent('download');
  await visitor.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('team-report.csv');
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
  expect(csv[0]).toBe('email,course,licence,status,progress,last_activity,completed_at,certificate');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toMatch(new RegExp(`^${ann.replace(/[.]/g, '\\.')},${title},lic_[^,]+,active,50,\\d{4}-`));

  // The leader's settings: the weekly email is on until turned off.
  await visitor.getByRole('link', { name: 'settings' }).click();
  await expect(visitor.getByLabel('Weekly team progress email')).toBeChecked();
  await visitor.getByLabel('Name').fill('Dana Leader');
  await visitor.getByLabel('Organisation').fill('Acme Safety');
  await visitor.getByLabel('Weekly team progress email').click();
  await visitor.getByRole('button', { name: 'Save settings' }).click();
  await expect(toast(visitor, 'Settings saved')).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByLabel('Organisation')).toHaveValue('Acme Safety');
  await expect(visitor.getByLabel('Weekly team progress email')).not.toBeChecked();
  await checkAndShoot(visitor, testInfo, 'licences-leader-settings');

  // The leader's dashboard: the real team, not samples.
  await visitor.goto('/dashboard/leader');
  const figures = visitor.getByRole('region', { name: 'Key figures' });
  await expect(figures).toContainText('Team Members2');
  await expect(figures).toContainText('Licenses2 / 3');
  await expect(visitor.getByRole('progressbar', { name: `${ann}: 50% complete` })).toBeVisible();
  await checkAndShoot(visitor, testInfo, 'licences-leader-dashboard');
  await visitorContext.close();
});

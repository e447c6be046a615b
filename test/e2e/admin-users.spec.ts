import type { Browser, BrowserContext, Page } from '@playwright/test';
import { checkAndShoot, createTestAccount, expect, signInAsAdmin, test } from './support/cloud.ts';

// User management (issue 11 point 4) in a real browser against the local cloud: the admin invites a group leader from
// the Users screen, finds them first among group leaders, and the invitation is in SES local; and disables an account,
// which then cannot sign in, and enables it again; and moves a learner to group leader.

interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}

/** The account signs in from a browser of its own (not the admin's session). */
async function signInElsewhere(browser: Browser, account: { email: string; password: string }): Promise<{ other: Page; context: BrowserContext }> {
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto('/auth/login');
  await other.getByLabel('Email').fill(account.email);
  await other.getByLabel('Password', { exact: true }).fill(account.password);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  return { other, context };
}

test('an admin invites a group leader, sees them listed first, and the invitation is emailed', async ({ page, cloud }, testInfo) => {
  const email = `invited-leader-${Date.now()}@example.com`;
  await signInAsAdmin(page, cloud);

  await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'users' }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/users$/);
  await expect(page.getByRole('region', { name: 'Creators' }).getByRole('table')).toBeVisible();
  await checkAndShoot(page, testInfo, 'users-creators');

  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('Email').fill(email);
  await expect(dialog.getByRole('combobox', { name: 'Role' })).toHaveText('Group leader');
  await checkAndShoot(page, testInfo, 'users-add-dialog');
  await dialog.getByRole('button', { name: 'Invite user' }).click();
  // The invitation is several calls to Cognito and SES (and the audit line) behind one request: on CI's two cores with
  // every test shard's cloud busy it has taken more than the 10 s an expectation waits by default.
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'User invited' })).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toHaveCount(0);

  const leaders = page.getByRole('region', { name: 'Group leaders' }).getByRole('table');
  await expect(leaders).toBeVisible();
  await expect(leaders.getByRole('row').nth(1)).toContainText(email);

  const { emails } = (await (await fetch(`${cloud.SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
  const invitation = emails.filter((m) => m.destination.to.includes(email));
  expect(invitation).toHaveLength(1);
  expect(invitation[0]!.subject).toBe('Your Course Platform account is ready');
  expect(invitation[0]!.body.text).toMatch(/Temporary password: \S{16,}/);
});

test('an admin disables an account after a confirmation, its sign-in is refused, and enabling it lets it back in', async ({ page, browser, cloud }, testInfo) => {
  const creator = await createTestAccount(cloud, 'creator', 'disabled-creator');
  await signInAsAdmin(page, cloud);
  await page.goto('/dashboard/admin/users');
  const row = page.getByRole('region', { name: 'Creators' }).getByRole('row').filter({ hasText: creator.email });
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: `Disable ${creator.email}` }).click();
  const question = page.getByRole('alertdialog', { name: 'Disable this account?' });
  await expect(question).toContainText(`${creator.email} will no longer be able to sign in`);
  await checkAndShoot(page, testInfo, 'users-disable-confirmation');
  await question.getByRole('button', { name: 'Disable account' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Account disabled' })).toBeVisible();
  await expect(row).toContainText('Disabled');
  await checkAndShoot(page, testInfo, 'users-disabled-row');

  const signIn = () => signInElsewhere(browser, creator);
  const refused = await signIn();
  await expect(refused.other.locator('[data-sonner-toast]').filter({ hasText: 'Sign in failed' })).toContainText('User is disabled.');
  await expect(refused.other).toHaveURL(/\/auth\/login$/);
  await refused.context.close();

  await row.getByRole('button', { name: `Enable ${creator.email}` }).click();
  await page.getByRole('alertdialog', { name: 'Enable this account?' }).getByRole('button', { name: 'Enable account' }).click();
  await expect(row).toContainText('Active');
  const admitted = await signIn();
  await expect(admitted.other).not.toHaveURL(/\/auth\/login$/);
  await admitted.context.close();
});

test("an admin moves a learner to group leader, and the learner's next sign-in opens the leader's dashboard", async ({ page, browser, cloud }, testInfo) => {
  const learner = await createTestAccount(cloud, 'learner', 're-roled-learner');
  await signInAsAdmin(page, cloud);
  await page.goto('/dashboard/admin/users');
  await page.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Learners' }).click();
  const row = page.getByRole('region', { name: 'Learners' }).getByRole('row').filter({ hasText: learner.email });
  await row.getByRole('button', { name: `Change the role of ${learner.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Change role' });
  await dialog.getByRole('combobox', { name: 'New role' }).click();
  await page.getByRole('option', { name: 'Group leader' }).click();
  await checkAndShoot(page, testInfo, 'users-change-role');
  await dialog.getByRole('button', { name: 'Change role' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Role changed' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Learners' }).getByText(learner.email)).toHaveCount(0);

  const { other, context } = await signInElsewhere(browser, learner);
  await expect(other).toHaveURL(/\/dashboard\/leader$/);
  await context.close();
});

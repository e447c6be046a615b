import type { Page } from '@playwright/test';
import { apiCaller, connectPayouts } from '#lib/local/demo-flows.ts';
import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 34 point 2 in a real browser against the local cloud: a creator on Pro (Stripe connected) makes a monthly
// membership to all their courses on the Memberships page; a visitor opens its page, subscribes on the Stripe
// stand-in's hosted checkout, signs in with the emailed temporary password, reads the course, and from My Learning
// clicks 'Manage membership' to reach the billing portal of the creator's account; the creator sees the member.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

test('a Pro creator sells a membership; a learner subscribes, reads the course and manages the subscription in the portal', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'memberships-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  await connectPayouts(apiCaller(cloud), cloud, token);
  const stamp = Date.now();
  const courseTitle = `Knife skills ${stamp}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: courseTitle, description: 'Cook at home.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Holding the knife', kind: 'text', body: '<p>Grip it by the handle.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published', priceAmount: 2900 });

  // The Memberships page: empty, then a monthly membership to all the creator's courses at £12.
  await signIn(page, creator.email, creator.password);
  // Sign-in goes through the local Cognito stand-in, slow on a busy machine.
  await expect(page).toHaveURL(/\/dashboard\/creator$/, { timeout: 30_000 });
  await page.getByRole('navigation', { name: 'Marketing' }).getByRole('link', { name: 'Memberships' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/memberships$/);
  await expect(page.getByRole('heading', { name: 'No memberships yet' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'memberships-empty');

  await page.getByRole('button', { name: 'Create membership' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a membership' });
  const title = `Kitchen club ${stamp}`;
  await dialog.getByLabel(/^Title/).fill(title);
  await dialog.getByLabel('Description').fill('Every course of the kitchen, for one price a month.');
  await dialog.getByLabel(/^Price/).fill('12');
  await dialog.getByRole('radio', { name: /All my courses/ }).check();
  await checkAndShoot(page, testInfo, 'memberships-dialog');
  await dialog.getByRole('button', { name: 'Create membership' }).click();
  await expect(toast(page, 'Membership created')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('£12 a month');
  await expect(page.getByRole('switch', { name: `${title} on sale` })).toBeChecked();
  await checkAndShoot(page, testInfo, 'memberships-list');
  const link = await page.getByRole('textbox', { name: `Link of ${title}` }).inputValue();
  expect(link).toMatch(new RegExp(`^${cloud.WebUrl}/m/[\\w-]+$`));

  // A visitor opens the membership's page and subscribes on Stripe's page.
  const member = `memberships-learner-${stamp}@example.com`;
  const visitorContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const visitor = await visitorContext.newPage();
  await visitor.goto(new URL(link).pathname);
  await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(visitor.getByTestId('membership-price')).toHaveText('£12');
  await expect(visitor.getByTestId('membership-courses')).toContainText(courseTitle);
  await checkAndShoot(visitor, testInfo, 'membership-page');
  await visitor.getByLabel(/^Email/).fill(member);
  await visitor.getByRole('button', { name: 'Subscribe' }).click();
  await expect(visitor.getByRole('button', { name: 'Pay' })).toBeVisible();
  await expect(visitor.locator('body')).toContainText('12.00');
  await visitor.getByRole('button', { name: 'Pay' }).click();
  await expect(visitor).toHaveURL(/\/m\/[\w-]+\?purchase=success$/);
  await expect(visitor.getByTestId('purchase-confirmation')).toContainText('your subscription has started');
  await checkAndShoot(visitor, testInfo, 'membership-page-subscribed');

  // One invitation; the first sign-in; the course opens in the player.
  await expect.poll(async () => (await mailsTo(cloud, member)).filter((mail) => /Temporary password: \S+/.test(mail.body.text ?? '')).length, { timeout: 30_000 }).toBe(1);
  const invitation = (await mailsTo(cloud, member)).find((mail) => /Temporary password: \S+/.test(mail.body.text ?? ''))!;
  const temporaryPassword = /Temporary password: (\S+)/.exec(invitation.body.text ?? '')![1]!;
  await signIn(visitor, member, temporaryPassword);
  await visitor.getByLabel('New password', { exact: true }).fill('Chosen1234');
  await visitor.getByLabel('Confirm new password').fill('Chosen1234');
  await visitor.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(visitor).toHaveURL(/\/dashboard\/learner$/, { timeout: 30_000 });
  await visitor.goto(`/dashboard/learner/courses/${course.id}`);
  await expect(visitor.getByText('Grip it by the handle.')).toBeVisible({ timeout: 30_000 });

  // My Learning: the membership with 'Manage membership', which opens the creator's account's billing portal.
  await visitor.goto('/dashboard/learner');
  const memberships = visitor.getByRole('region', { name: 'Your memberships' });
  await expect(memberships).toContainText(title);
  await expect(memberships).toContainText('£12 a month · Renews on');
  await checkAndShoot(visitor, testInfo, 'learner-memberships');
  await memberships.getByRole('button', { name: `Manage membership: ${title}` }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'Manage your subscription' })).toBeVisible();
  await expect(visitor.locator('body')).toContainText(member);
  await expect(visitor.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
  await visitor.getByRole('link', { name: 'Return to the platform' }).click();
  await expect(visitor).toHaveURL(/\/dashboard\/learner$/);

  // The creator's members: the learner, active, and the membership's MRR.
  await page.reload();
  await page.getByRole('button', { name: `Members of ${title}` }).click();
  const members = page.getByRole('dialog', { name: `Members of ${title}` });
  await expect(members.getByRole('row').filter({ hasText: member })).toContainText('Active');
  await expect(members.getByTestId('membership-figures')).toContainText('Monthly recurring revenue£12');
  await checkAndShoot(page, testInfo, 'memberships-members');
  await visitorContext.close();
});

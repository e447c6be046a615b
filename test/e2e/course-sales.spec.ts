import type { Page } from '@playwright/test';
import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 12 in a real browser against the local cloud: a creator connects their own Stripe account (the stand-in's
// hosted onboarding), prices a course and makes a coupon; a visitor buys the course with the coupon on its public
// page and pays on the stand-in's hosted checkout; the new learner signs in with the emailed temporary password and
// finds the course; the creator sees the sale and the chart, refunds it, and the learner loses access.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

test('a creator connects Stripe, prices a course and makes a coupon; a visitor buys it, learns it, and loses it when refunded', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'sales-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  const title = `Sourdough at home ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Feed a starter and bake a real loaf.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'The starter', kind: 'text', body: '<p>Flour and water, fed daily.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published', priceAmount: 2900 });

  // Payments: not connected -> Stripe's hosted onboarding -> back on the profile, Ready.
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto('/dashboard/creator/courses');
  await expect(page.getByTestId('payouts-banner')).toContainText('Connect Stripe to sell your courses.');
  await page.getByRole('link', { name: 'Set up payments' }).click();
  const payments = page.getByRole('region', { name: 'Payments' });
  await expect(payments.getByTestId('payouts-status')).toHaveText('Not connected');
  await checkAndShoot(page, testInfo, 'sales-payments-not-connected', { payments });
  await payments.getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(page.getByRole('button', { name: 'Complete onboarding' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete onboarding' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/profile\?payouts=return$/);
  await expect(payments.getByTestId('payouts-status')).toHaveText('Ready', { timeout: 30_000 });
  await checkAndShoot(page, testInfo, 'sales-payments-ready', { payments });

  // A coupon for 20% off.
  await page.goto('/dashboard/creator/coupons');
  await page.getByRole('button', { name: 'Create coupon' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Code/).fill('launch20');
  await dialog.getByLabel('Percentage off').check();
  await dialog.getByLabel(/^Percent off/).fill('20');
  await dialog.getByRole('button', { name: 'Create coupon' }).click();
  await expect(toast(page, 'Coupon created')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'LAUNCH20 active' })).toBeChecked();

  // A visitor, never signed in, buys the course with the coupon on its public page and pays on Stripe's page.
  const buyer = `sales-buyer-${Date.now()}@example.com`;
  const visitorContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/c/${course.id}`);
  await expect(visitor.getByTestId('course-price')).toHaveText('£29');
  await visitor.getByLabel(/^Email/).fill(buyer);
  await visitor.getByLabel('Coupon code (optional)').fill('LAUNCH20');
  await visitor.getByRole('button', { name: 'Buy now' }).click();
  await expect(visitor.getByRole('button', { name: 'Pay' })).toBeVisible();
  await expect(visitor.locator('body')).toContainText('23.20');
  await visitor.getByRole('button', { name: 'Pay' }).click();
  await expect(visitor).toHaveURL(new RegExp(`/c/${course.id}\\?purchase=success`));
  await expect(visitor.getByTestId('purchase-confirmation')).toContainText('Payment received.');

  // The new learner's invitation, their first sign-in, and the course in their list.
  await expect.poll(async () => (await mailsTo(cloud, buyer)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const invitation = (await mailsTo(cloud, buyer)).find((mail) => mail.subject === 'Your purchase on Course Platform');
  const temporaryPassword = /Temporary password: (\S+)/.exec(invitation?.body.text ?? '')?.[1];
  expect(temporaryPassword, 'a temporary password in the purchase email').toBeDefined();
  await signIn(visitor, buyer, temporaryPassword!);
  await visitor.getByLabel('New password', { exact: true }).fill('Chosen1234');
  await visitor.getByLabel('Confirm new password').fill('Chosen1234');
  await visitor.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(visitor).toHaveURL(/\/dashboard\/learner$/);
  await visitor.goto('/dashboard/learner/courses');
  await expect(visitor.getByText(title)).toBeVisible();

  // The creator sees the sale, its coupon and the chart; refunds it.
  await page.goto('/dashboard/creator/analytics');
  await expect(page.getByRole('list', { name: 'Sales funnel' })).toContainText('Paid1');
  await checkAndShoot(page, testInfo, 'sales-analytics-overview');
  await page.goto('/dashboard/creator/analytics?tab=sales');
  const refund = page.getByRole('button', { name: `Refund ${buyer}'s purchase of ${title}` });
  await expect(refund).toBeVisible();
  await expect(page.getByRole('table').first()).toContainText('LAUNCH20');
  await checkAndShoot(page, testInfo, 'sales-list');
  await refund.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Refund sale' }).click();
  await expect(toast(page, 'Sale refunded')).toBeVisible();
  await expect(page.getByRole('table').first()).toContainText(/refunded/i);

  // The learner loses the course (their progress is kept should they come back).
  await visitor.goto('/dashboard/learner/courses');
  await expect(visitor.getByText(title)).toHaveCount(0);
  await visitorContext.close();
});

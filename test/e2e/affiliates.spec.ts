import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { accessToken, api, mailsTo, signIn, startJob } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 13 in a real browser against the local cloud: a Pro creator adds an affiliate (who is emailed their link), a
// visitor follows the link and buys the course, the commission shows pending, the daily job approves it, and the
// creator pays it out and gets the CSV.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

test('a creator adds an affiliate; a visitor follows the link and buys; the job approves the commission; the creator pays out and gets the CSV', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'affiliates-creator', { plan: 'none' });
  const token = await accessToken(cloud, creator.email, creator.password);
  // Pro through Stripe's (the stand-in's) checkout, and the creator's own payment account through its onboarding.
  const pro = await api<{ url: string }>(cloud, token, 'POST', '/api/billing/checkout', { planType: 'pro', successUrl: `${cloud.WebUrl}/ok`, cancelUrl: `${cloud.WebUrl}/no` });
  expect((await fetch(`${pro.url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  await expect.poll(async () => (await api<{ tier: string | null }>(cloud, token, 'GET', '/api/me/subscription')).tier, { timeout: 30_000 }).toBe('pro');
  const onboarding = await api<{ url: string }>(cloud, token, 'POST', '/api/creator/payouts/connect', { returnUrl: `${cloud.WebUrl}/r`, refreshUrl: `${cloud.WebUrl}/f` });
  await fetch(onboarding.url);
  await fetch(`${onboarding.url}/complete`, { method: 'POST', redirect: 'manual' });
  await expect.poll(async () => (await api<{ status: string }>(cloud, token, 'GET', '/api/creator/payouts')).status, { timeout: 30_000 }).toBe('enabled');
  // The course once the plan is there (a creator without one reads only: issue 29).
  const title = `Pasta by hand ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Fresh pasta, no machine.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Dough', kind: 'text', body: '<p>Eggs and flour.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published', priceAmount: 4000 });

  // The creator adds an affiliate with no refund hold (so the next job run approves the commission).
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto('/dashboard/creator/affiliates');
  await expect(page.getByRole('heading', { name: 'No affiliates yet' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'affiliates-empty');
  await page.getByRole('button', { name: 'Add affiliate' }).first().click();
  const dialog = page.getByRole('dialog');
  const affiliate = `affiliate-${Date.now()}@example.com`;
  await dialog.getByLabel(/^Name/).fill('Ali Baker');
  await dialog.getByLabel(/^Email/).fill(affiliate);
  await dialog.getByLabel(/^Commission/).fill('25');
  await dialog.getByLabel(/^Refund hold/).fill('0');
  await checkAndShoot(page, testInfo, 'affiliates-add', { dialog });
  await dialog.getByRole('button', { name: 'Add affiliate' }).click();
  await expect(toast(page, 'Affiliate added')).toBeVisible();
  const table = page.getByRole('region', { name: 'Affiliates' });
  await expect(table).toContainText('Ali Baker');

  // The affiliate's email carries their link; they share the course's.
  await expect.poll(async () => (await mailsTo(cloud, affiliate)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const [welcome] = await mailsTo(cloud, affiliate);
  const code = /\/api\/public\/r\/([A-Z2-9]{8})/.exec(welcome?.body.text ?? '')?.[1];
  expect(code, 'the link in the email').toBeDefined();

  // A visitor follows the link to the course and buys it.
  const buyer = `affiliates-buyer-${Date.now()}@example.com`;
  const visitorContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/api/public/r/${code}?to=/c/${course.id}`);
  await expect(visitor).toHaveURL(new RegExp(`/c/${course.id}$`));
  expect((await visitorContext.cookies()).find((c) => c.name === 'ref')?.value).toMatch(new RegExp(`^${code}\\.`));
  await visitor.getByLabel(/^Email/).fill(buyer);
  await visitor.getByRole('button', { name: 'Buy now' }).click();
  await visitor.getByRole('button', { name: 'Pay' }).click();
  await expect(visitor.getByTestId('purchase-confirmation')).toContainText('Payment received.');
  await visitorContext.close();

  // The commission shows pending: 25% of £40.
  await page.reload();
  await expect(table).toContainText('£10');
  await page.getByRole('button', { name: 'Commissions of Ali Baker' }).click();
  const commissions = page.getByRole('dialog', { name: 'Commissions of Ali Baker' });
  await expect(commissions).toContainText(title);
  await expect(commissions).toContainText('Pending');
  await checkAndShoot(page, testInfo, 'affiliates-commissions', { commissions });
  await page.keyboard.press('Escape');

  // The daily job, started now (as the scheduler would, through Lambda's asynchronous invoke), approves it.
  await startJob(cloud, 'commission-approval');
  const payOut = page.getByRole('button', { name: 'Pay out Ali Baker' });
  await expect(async () => {
    await page.reload();
    await expect(payOut).toBeEnabled({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await checkAndShoot(page, testInfo, 'affiliates-approved');

  // 'Pay out': confirmed, recorded, and the payout's CSV (written by the server to a file, one row per commission)
  // downloaded through its link.
  await payOut.click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Pay out £10 to Ali Baker?');
  await checkAndShoot(page, testInfo, 'affiliates-pay-out', { confirm });
  const download = page.waitForEvent('download');
  await confirm.getByRole('button', { name: 'Pay out' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^affiliate-payout-${code}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const csv = await readFile(await file.path(), 'utf8');
  expect(csv).toMatch(new RegExp(`^affiliate,email,orderId,amount,paidAt\nAli Baker,${affiliate.replace(/[.+]/g, '\\$&')},\\S+,10\\.00,\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z\n$`));
  await expect(toast(page, 'Payout recorded')).toBeVisible();
  await checkAndShoot(page, testInfo, 'affiliates-paid-out');
  await expect(payOut).toBeDisabled();
  await page.getByRole('button', { name: 'Commissions of Ali Baker' }).click();
  await expect(page.getByRole('dialog', { name: 'Commissions of Ali Baker' })).toContainText('Paid');
});

test('a Starter creator sees what Pro unlocks and the way to upgrade, not the form', async ({ page, cloud }, testInfo) => {
  // A creator on a Starter trial, through Stripe's (the stand-in's) checkout (the seeded demo creator is on Pro).
  const starter = await createTestAccount(cloud, 'creator', 'affiliates-starter', { plan: 'none' });
  const token = await accessToken(cloud, starter.email, starter.password);
  const trial = await api<{ url: string }>(cloud, token, 'POST', '/api/billing/checkout', { planType: 'starter', successUrl: `${cloud.WebUrl}/ok`, cancelUrl: `${cloud.WebUrl}/no` });
  expect((await fetch(`${trial.url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  await expect.poll(async () => (await api<{ tier: string | null }>(cloud, token, 'GET', '/api/me/subscription')).tier, { timeout: 30_000 }).toBe('starter');
  await signIn(page, starter.email, starter.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto('/dashboard/creator/affiliates');
  await expect(page.getByRole('heading', { name: 'Affiliates are part of the Pro plan' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upgrade to Pro' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add affiliate' })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'affiliates-starter');
});

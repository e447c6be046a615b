import type { Page } from '@playwright/test';
import { apiCaller, connectPayouts } from '#lib/local/demo-flows.ts';
import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 34 point 1 in a real browser against the local cloud: a creator (Stripe connected) makes a bundle of two of
// their published courses on the Bundles page, seeing the saving as they price it, and copies its public link; a
// visitor opens the bundle's page, pays on the Stripe stand-in's hosted checkout, signs in with the emailed temporary
// password and finds both courses in their dashboard; the creator's Sales list names the sale as the bundle's.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

test('a creator bundles two courses; a visitor buys the bundle on its page and finds both courses in their dashboard', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'bundles-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  await connectPayouts(apiCaller(cloud), cloud, token);
  const stamp = Date.now();
  const published = async (title: string, priceAmount: number) => {
    const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Cook at home.' });
    await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'First steps', kind: 'text', body: '<p>Begin here.</p>' });
    await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published', priceAmount });
    return course.id;
  };
  const knives = `Knife skills ${stamp}`;
  const stocks = `Stocks and sauces ${stamp}`;
  await published(knives, 2900);
  await published(stocks, 1900);

  // The Bundles page: empty, then a bundle of both courses at £39, the saving shown as it is priced.
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.getByRole('navigation', { name: 'Marketing' }).getByRole('link', { name: 'Bundles' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/bundles$/);
  await expect(page.getByRole('heading', { name: 'No bundles yet' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'bundles-empty');

  await page.getByRole('button', { name: 'Create bundle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a bundle' });
  const title = `Kitchen basics ${stamp}`;
  await dialog.getByLabel(/^Title/).fill(title);
  await dialog.getByLabel('Description').fill('Sharp knives and good stocks: the two things every cook needs.');
  await dialog.getByRole('searchbox', { name: 'Search your courses' }).fill('knife');
  await dialog.getByRole('checkbox', { name: new RegExp(knives) }).check();
  await dialog.getByRole('searchbox', { name: 'Search your courses' }).fill('');
  await dialog.getByRole('checkbox', { name: new RegExp(stocks) }).check();
  await dialog.getByLabel(/^Bundle price/).fill('39');
  await expect(dialog.getByTestId('bundle-saving')).toContainText('Separately: £48 · Bundle: £39');
  await expect(dialog.getByTestId('bundle-saving')).toContainText('Buyers save £9 (19%)');
  await checkAndShoot(page, testInfo, 'bundles-dialog');
  await dialog.getByRole('button', { name: 'Create bundle' }).click();
  await expect(toast(page, 'Bundle created')).toBeVisible();
  await expect(page.getByRole('switch', { name: `${title} on sale` })).toBeChecked();
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Saves £9 (19%)');
  await checkAndShoot(page, testInfo, 'bundles-list');
  const link = await page.getByRole('textbox', { name: `Link of ${title}` }).inputValue();
  expect(link).toMatch(new RegExp(`^${cloud.WebUrl}/b/[\\w-]+$`));

  // A visitor, never signed in, opens the bundle's page and pays on Stripe's page.
  const buyer = `bundles-buyer-${stamp}@example.com`;
  const visitorContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const visitor = await visitorContext.newPage();
  await visitor.goto(new URL(link).pathname);
  await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(visitor.getByTestId('bundle-price')).toHaveText('£39');
  await expect(visitor.getByTestId('bundle-saving')).toHaveText('Save £9 (19%)');
  await expect(visitor.getByTestId('bundle-courses')).toContainText(knives);
  await expect(visitor.getByTestId('bundle-courses')).toContainText(stocks);
  await checkAndShoot(visitor, testInfo, 'bundle-page');
  await visitor.getByLabel(/^Email/).fill(buyer);
  await visitor.getByRole('button', { name: 'Buy now' }).click();
  await expect(visitor.getByRole('button', { name: 'Pay' })).toBeVisible();
  await expect(visitor.locator('body')).toContainText('39.00');
  await visitor.getByRole('button', { name: 'Pay' }).click();
  await expect(visitor).toHaveURL(/\/b\/[\w-]+\?purchase=success$/);
  await expect(visitor.getByTestId('purchase-confirmation')).toContainText('Payment received.');
  await checkAndShoot(visitor, testInfo, 'bundle-page-paid');

  // One invitation; the first sign-in; both courses in the learner's list.
  await expect.poll(async () => (await mailsTo(cloud, buyer)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const invitations = (await mailsTo(cloud, buyer)).filter((mail) => /Temporary password: \S+/.test(mail.body.text ?? ''));
  expect(invitations).toHaveLength(1);
  const temporaryPassword = /Temporary password: (\S+)/.exec(invitations[0]!.body.text ?? '')![1]!;
  await signIn(visitor, buyer, temporaryPassword);
  await visitor.getByLabel('New password', { exact: true }).fill('Chosen1234');
  await visitor.getByLabel('Confirm new password').fill('Chosen1234');
  await visitor.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(visitor).toHaveURL(/\/dashboard\/learner$/);
  await visitor.goto('/dashboard/learner/courses');
  await expect(visitor.getByText(knives)).toBeVisible();
  await expect(visitor.getByText(stocks)).toBeVisible();
  await checkAndShoot(visitor, testInfo, 'bundle-learner-courses');

  // The creator's Sales list names the sale as the bundle's.
  await page.goto('/dashboard/creator/analytics?tab=sales');
  await expect(page.getByRole('button', { name: `Refund ${buyer}'s purchase of Bundle: ${title}` })).toBeVisible({ timeout: 30_000 });
  await checkAndShoot(page, testInfo, 'bundles-sales-list');
  await visitorContext.close();
});

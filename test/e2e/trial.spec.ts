import type { Page, Request, TestInfo } from '@playwright/test';
import type { Outputs } from '#lib/local/outputs.ts';
import { cancelInPortal, checkAndShoot as check, expect, test } from './support/cloud.ts';

// One free trial per creator (issue 7), in a real browser against the local cloud: a creator who signed up here
// (never a seeded account) trials Starter, cancels it in the Stripe stand-in's portal, and is then offered Starter
// with no trial anywhere: not on the pricing cards, not on the hosted checkout, not on the success page. Every
// purchase intent carries its own Idempotency-Key. Screenshots at 1280 px and 375 px land in the test's output.

const PASSWORD = 'Str0ngPassword';
const idempotencyKey = /^[\w.:-]{8,200}$/;

/** Self-registration through the sign-up screen, then sign-in: the creator's dashboard, unsubscribed. */
async function signUpAndSignIn(page: Page): Promise<void> {
  const email = `trial-${Date.now()}@example.com`;
  await page.goto('/auth/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  // The URL changes before the sign-in screen (a lazy chunk) replaces the sign-up form: wait for its button.
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  await expect(signIn).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await signIn.click();
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
}

const checkAndShoot = (page: Page, testInfo: TestInfo, name: string) => check(page, testInfo, name, { plan: page.getByTestId('subscription-panel') });

const onStripe = (page: Page, cloud: Outputs, path: string) =>
  expect(page).toHaveURL((url) => url.href.startsWith(cloud.StripeApiUrl) && url.pathname.startsWith(path));
const starterCard = (page: Page) => page.getByTestId('subscription-panel').getByTestId('plan-starter');
const creditsLeft = (page: Page) => page.getByRole('region', { name: 'AI Credits' }).getByTestId('credits-remaining');

/** The Idempotency-Key of every purchase intent the page sends, by endpoint. */
function recordIntents(page: Page): Record<'checkout' | 'portal', (string | undefined)[]> {
  const intents = { checkout: [] as (string | undefined)[], portal: [] as (string | undefined)[] };
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST') return;
    const { pathname } = new URL(request.url());
    if (pathname === '/api/billing/checkout') intents.checkout.push(request.headers()['idempotency-key']);
    if (pathname === '/api/billing/portal') intents.portal.push(request.headers()['idempotency-key']);
  });
  return intents;
}

test.describe('one free trial per creator', () => {
  test('a creator who trialed Starter and canceled is offered Starter again with no trial, and it starts active and billed', async ({
    page,
    cloud,
  }, testInfo) => {
    test.setTimeout(150_000);
    const intents = recordIntents(page);
    await signUpAndSignIn(page);

    // A new creator is offered the trial.
    await expect(page.getByRole('region', { name: 'Choose your plan' })).toContainText('Starter starts with a 14-day free trial.');
    await expect(starterCard(page)).toContainText('Free for 14 days, then billed monthly');
    await expect(starterCard(page)).toContainText('14-day free trial');
    await starterCard(page).getByRole('button', { name: 'Get Started' }).click();
    await onStripe(page, cloud, '/checkout/');
    await expect(page.getByText('14-day free trial.')).toBeVisible();
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page).toHaveURL(/\/checkout\/success\?session_id=/);
    await expect(page.getByTestId('checkout-plan')).toHaveText('Starter Plan — 14 days left in your trial');

    // Canceled in the provider's portal, straight away.
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page.getByTestId('subscription-status')).toHaveText('Trial');
    await cancelInPortal(page, cloud);

    // The plans again, with no trial anywhere.
    const canceled = page.getByRole('region', { name: 'Your subscription has been canceled' });
    await expect(canceled).toBeVisible();
    await expect(canceled).not.toContainText(/free trial/i);
    await expect(starterCard(page)).toContainText('£28/month');
    await expect(starterCard(page)).toContainText('Billed monthly, cancel anytime');
    await expect(starterCard(page)).not.toContainText('Free for 14 days');
    await expect(starterCard(page)).not.toContainText(/free trial/i);
    const creditsBefore = await creditsLeft(page).textContent();
    await checkAndShoot(page, testInfo, 'canceled-no-trial');

    // Starter again: the hosted checkout charges today, and the plan starts active.
    await starterCard(page).getByRole('button', { name: 'Get Started' }).click();
    await onStripe(page, cloud, '/checkout/');
    await expect(page.getByRole('heading', { level: 1, name: 'Starter' })).toBeVisible();
    await expect(page.getByText(/free trial/i)).toHaveCount(0);
    // The stand-in's summary: 'Due today' is the first of its terms (£0.00 on a trial).
    await expect(page.getByRole('term').first()).toHaveText('Due today');
    await expect(page.getByRole('definition').first()).toHaveText('£28.00');
    await page.getByRole('button', { name: 'Pay' }).click();

    await expect(page).toHaveURL(/\/checkout\/success\?session_id=/);
    await expect(page.getByTestId('checkout-plan')).toHaveText('Starter Plan — active');
    await expect(page.getByTestId('checkout-plan-billing')).toContainText('Billed £28/month from today');
    await expect(page.getByRole('main')).not.toContainText(/trial|days left/i);
    await checkAndShoot(page, testInfo, 'success-no-trial');

    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator$/);
    await expect(page.getByTestId('subscription-plan')).toHaveText('Starter Plan');
    await expect(page.getByTestId('subscription-status')).toHaveText('Active');
    await expect(page.getByTestId('trial-days-left')).toHaveCount(0);
    await expect(page.getByTestId('subscription-panel')).toContainText(/Renews on .+ at £28\/month/);
    // Back on Starter inside the same period: the month's allocation is not granted a second time.
    await expect(creditsLeft(page)).toHaveText(creditsBefore ?? '');
    await checkAndShoot(page, testInfo, 'dashboard-active-no-trial');

    // Each purchase intent sent its own key.
    expect(intents.checkout).toHaveLength(2);
    expect(intents.portal).toHaveLength(1);
    for (const key of [...intents.checkout, ...intents.portal]) expect(key).toMatch(idempotencyKey);
    expect(intents.checkout[0]).not.toBe(intents.checkout[1]);
  });
});

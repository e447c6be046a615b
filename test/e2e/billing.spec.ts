import type { Page } from '@playwright/test';
import type { Outputs } from '#lib/local/outputs.ts';
import { cancelInPortal, checkAndShoot, createTestAccount, expect, test, TEST_PASSWORD } from './support/cloud.ts';

// The money paths in a real browser against the local cloud: a NEW creator (so each test starts unsubscribed)
// subscribes from their dashboard through the Stripe stand-in's hosted checkout, gets the trial and the credits
// from the webhook, tops up, manages the plan in the stand-in's portal. Screenshots of each dashboard state at
// 1280 px and 375 px land in the test's output folder (and the report).

const PASSWORD = TEST_PASSWORD;

/** A new creator (no plan yet); its email. */
const newCreator = async (cloud: Outputs, label: string): Promise<string> => (await createTestAccount(cloud, 'creator', `billing-${label}`, { plan: 'none' })).email;

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
}

/** The billing pieces, shot close up at each width. */
const billingCloseUps = (page: Page) => ({ plan: page.getByTestId('subscription-panel'), credits: page.getByRole('region', { name: 'AI Credits' }) });

const plan = (page: Page) => page.getByTestId('subscription-plan');
const creditsCard = (page: Page) => page.getByRole('region', { name: 'AI Credits' });

/** From the unsubscribed dashboard: Starter -> the stand-in's checkout -> Pay -> /checkout/success. */
async function subscribeToStarter(page: Page, cloud: Outputs): Promise<void> {
  const choose = page.getByRole('region', { name: 'Choose your plan' });
  await expect(choose).toBeVisible();
  await choose.getByTestId('plan-starter').getByRole('button', { name: 'Get Started' }).click();

  await expect(page).toHaveURL((url) => url.href.startsWith(cloud.StripeApiUrl) && url.pathname.startsWith('/checkout/'));
  await expect(page.getByText('14-day free trial.')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/checkout\/success\?session_id=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Platform!' })).toBeVisible();
  await expect(page.getByTestId('checkout-plan')).toHaveText('Starter Plan — 14 days left in your trial');
}

/** Spends credits the way the generator will: POST /api/credits/use with the signed-in user's token. */
async function spendCredits(page: Page, creditsToUse: number): Promise<number> {
  return page.evaluate(async (amount) => {
    // Amplify keeps the Cognito tokens in localStorage (this file is typed for Node: no DOM lib).
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    const tokenKey = Object.keys(storage).find((key) => key.startsWith('CognitoIdentityServiceProvider.') && key.endsWith('.accessToken'));
    const res = await fetch('/api/credits/use', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${tokenKey ? storage[tokenKey] : ''}`,
        'Idempotency-Key': `e2e-${crypto.randomUUID()}`,
      },
      body: JSON.stringify({ creditsToUse: amount, actionType: 'e2e_spend' }),
    });
    return res.status;
  }, creditsToUse);
}

test.describe('billing and AI credits', () => {
  test('a new creator subscribes to Starter from the dashboard, gets the trial and 50 credits, and tops up to 150', async ({
    page,
    cloud,
  }, testInfo) => {
    test.setTimeout(120_000);
    await signIn(page, await newCreator(cloud, 'starter'));

    await expect(creditsCard(page).getByText('No AI credits yet')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Choose your plan' }).getByTestId('plan-pro')).toContainText('Most Popular');
    await checkAndShoot(page, testInfo, 'dashboard-unsubscribed', billingCloseUps(page));

    await subscribeToStarter(page, cloud);
    await checkAndShoot(page, testInfo, 'checkout-success', billingCloseUps(page));

    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator$/);
    await expect(plan(page)).toHaveText('Starter Plan');
    await expect(page.getByTestId('trial-days-left')).toHaveText('14 days left in your trial');
    await expect(page.getByTestId('subscription-status')).toHaveText('Trial');
    await expect(creditsCard(page).getByTestId('credits-remaining')).toHaveText('50');
    await expect(creditsCard(page).getByText('Starter Plan')).toBeVisible();
    await expect(creditsCard(page).getByRole('progressbar', { name: 'Monthly credits left' })).toHaveAttribute('aria-valuenow', '100');
    await expect(creditsCard(page).getByTestId('credits-reset')).toHaveText(/^Resets [A-Z][a-z]{2} \d{1,2}$/);
    await expect(page.getByRole('region', { name: 'Choose your plan' })).toHaveCount(0);
    await checkAndShoot(page, testInfo, 'dashboard-trial', billingCloseUps(page));

    // Another creator page carries the trial banner; the dashboard itself does not repeat it.
    await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'crm', exact: true }).click();
    await expect(page.getByTestId('trial-banner')).toContainText('14 days left in your trial');
    await checkAndShoot(page, testInfo, 'creator-page-trial-banner', billingCloseUps(page));
    await page.getByRole('link', { name: 'View plan' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator$/);
    await expect(page.getByTestId('trial-banner')).toHaveCount(0);

    // The top-up: the stand-in's checkout in payment mode, back on /dashboard (-> the creator dashboard).
    await creditsCard(page).getByRole('button', { name: 'Top up 100 credits' }).click();
    await expect(page).toHaveURL((url) => url.href.startsWith(cloud.StripeApiUrl) && url.pathname.startsWith('/checkout/'));
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator$/);
    await expect(creditsCard(page).getByTestId('credits-remaining')).toHaveText('150');
    await expect(creditsCard(page).getByTestId('credits-ratio')).toHaveText('150 / 50');
    await checkAndShoot(page, testInfo, 'dashboard-topped-up', billingCloseUps(page));
  });

  test("low credits are flagged; 'Manage billing' opens the portal, and a cancellation there shows on the dashboard", async ({
    page,
    cloud,
  }, testInfo) => {
    test.setTimeout(120_000);
    await signIn(page, await newCreator(cloud, 'cancel'));
    await subscribeToStarter(page, cloud);
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(creditsCard(page).getByTestId('credits-remaining')).toHaveText('50');

    expect(await spendCredits(page, 45)).toBe(200);
    await page.reload();
    await expect(creditsCard(page).getByTestId('credits-remaining')).toHaveText('5');
    await expect(creditsCard(page).getByTestId('credits-low')).toBeVisible();
    await expect(creditsCard(page).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');
    await checkAndShoot(page, testInfo, 'dashboard-low-credits', billingCloseUps(page));

    await cancelInPortal(page, cloud);

    const canceled = page.getByRole('region', { name: 'Your subscription has been canceled' });
    await expect(canceled).toBeVisible();
    await expect(canceled.getByTestId('subscription-status')).toHaveText('Canceled');
    await expect(canceled.getByTestId('plan-starter').getByRole('button', { name: 'Get Started' })).toBeEnabled();
    // Credits already held stay usable after a cancellation, with no monthly allocation (docs/decisions/0007).
    await expect(creditsCard(page).getByTestId('credits-remaining')).toHaveText('5');
    await expect(creditsCard(page).getByTestId('credits-no-allocation')).toBeVisible();
    await checkAndShoot(page, testInfo, 'dashboard-canceled', billingCloseUps(page));
  });
});

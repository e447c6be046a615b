import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import type { Role } from '#contracts/common.ts';
import type { Outputs } from '#lib/local/outputs.ts';

/** The file with the local cloud's outputs (written by global-setup.ts, or `.local/outputs.json` of `npm start`). */
export const OUTPUTS_ENV = 'E2E_OUTPUTS_FILE';

function readCloudOutputs(): Outputs {
  const file = process.env[OUTPUTS_ENV];
  if (!file) throw new Error(`${OUTPUTS_ENV} is not set: run the browser tests with \`npm run test:e2e\``);
  return JSON.parse(readFileSync(file, 'utf8')) as Outputs;
}

/** `test` with the local cloud's outputs as a fixture and its web URL as baseURL (`page.goto('/auth/login')`). */
export const test = base.extend<{ cloud: Outputs }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
  cloud: async ({}, use) => {
    await use(readCloudOutputs());
  },
  baseURL: async ({ cloud }, use) => {
    await use(cloud.WebUrl);
  },
});

export { expect };

/** From a creator's dashboard: 'Manage billing', cancel in the Stripe stand-in's portal, and back to the dashboard. */
export async function cancelInPortal(page: Page, cloud: Outputs): Promise<void> {
  await page.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(cloud.StripeApiUrl) && url.pathname.startsWith('/billing_portal/'));
  await expect(page.getByRole('heading', { name: 'Manage your subscription' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText(/^canceled$/)).toBeVisible();
  await page.getByRole('link', { name: 'Return to the platform' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
}

/** The password of every account the browser tests make. */
export const TEST_PASSWORD = 'Str0ngPassword';

/** A test creator's plan: Pro by default (every journey may use every feature), Starter, or none (never subscribed). */
export type TestPlan = 'pro' | 'starter' | 'none';

/** This process's functions code (use cases, adapters) pointed at this run's local cloud. */
async function useCloudEnv(cloud: Outputs): Promise<void> {
  const { applyFunctionEnv, functionEnv } = await import('#lib/local/function-env.ts');
  // The outputs file sits in the local cloud's data dir (the e2e global setup's, or `.local/` of `npm start`).
  applyFunctionEnv(functionEnv(cloud, dirname(process.env[OUTPUTS_ENV]!)));
  (await import('#data/table.ts')).resetDocumentClient();
}

/**
 * A fresh account with a role, made the way the product makes one (the real create-account use case with the Cognito
 * and DynamoDB adapters, pointed at this run's local cloud). `label` tells the spec's accounts apart in the data.
 * A creator is subscribed to `plan` (default Pro: the server refuses a creator's writes without a plan), written the way
 * Stripe's webhook writes it: a real customer at the Stripe stand-in (so 'Manage billing' opens its portal), then a
 * `customer.subscription.created` event, active on the plan's price, through the webhook's own use case and the real
 * billing and credit data modules (the plan's monthly AI credits included). `plan: 'none'` leaves the creator to
 * subscribe themselves (the billing journeys).
 */
export async function createTestAccount(
  cloud: Outputs,
  role: Role,
  label: string,
  { plan = 'pro' }: { plan?: TestPlan } = {},
): Promise<{ email: string; password: string }> {
  await useCloudEnv(cloud);
  const { createAccount } = await import('#core/accounts/create-account.ts');
  const { getDeps } = await import('#functions/composition/deps.ts');
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const user = await createAccount(getDeps(), { email, role, password: TEST_PASSWORD });
  if (role === 'creator' && plan !== 'none') await subscribe(user.id, plan);
  return { email, password: TEST_PASSWORD };
}

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

/** A Stripe subscription event about the test creator's subscription, applied by the webhook's use case. */
async function applySubscriptionEvent(userId: string, plan: Exclude<TestPlan, 'none'>, type: string, status: string, created: number): Promise<void> {
  const { ensureCustomer } = await import('#core/billing/customer.ts');
  const { handleStripeEvent } = await import('#core/billing/handle-stripe-event.ts');
  const { checkoutDeps, stripeEventDeps } = await import('#functions/composition/deps-payments.ts');
  const customerId = await ensureCustomer(checkoutDeps(), userId);
  const deps = stripeEventDeps();
  const outcome = await handleStripeEvent(deps, {
    id: `evt_e2e_${type}_${userId}`,
    created,
    type,
    kind: 'subscription',
    subscription: {
      id: `sub_e2e_${userId}`,
      customerId,
      status,
      priceId: deps.prices[plan],
      trialEnd: null,
      currentPeriodEnd: new Date(Date.now() + MONTH_MS).toISOString(),
      cancelAtPeriodEnd: false,
    },
  });
  if (outcome !== 'applied') throw new Error(`The test creator's ${type} (${plan}) was not applied: ${outcome}`);
}

/** The creator's subscription to `plan`, as the checkout and Stripe's webhook would leave it. */
const subscribe = (userId: string, plan: Exclude<TestPlan, 'none'>): Promise<void> =>
  applySubscriptionEvent(userId, plan, 'customer.subscription.created', 'active', Math.floor(Date.now() / 1000));

const userIdOf = async (email: string): Promise<string> => {
  const { userRepository } = await import('#functions/composition/deps.ts');
  const userId = await userRepository().getUserIdByEmail(email);
  if (!userId) throw new Error(`No account for ${email}`);
  return userId;
};

/**
 * A creator's webhook endpoints disabled as the delivery sweep leaves one that failed for 5 days (its failing mark, then
 * the disabling), through the same data module; no notice queued (the integration tests check that one).
 */
export async function disableTestWebhookEndpoints(cloud: Outputs, email: string): Promise<void> {
  await useCloudEnv(cloud);
  const { dynamoWebhookEndpoints } = await import('#data/webhooks.ts');
  const endpoints = dynamoWebhookEndpoints();
  const since = new Date(Date.now() - 5 * 86_400_000).toISOString();
  for (const endpoint of await endpoints.list(await userIdOf(email))) {
    await endpoints.markFailing(endpoint, since);
    if (!(await endpoints.disable({ ...endpoint, failingSince: since }, new Date().toISOString(), undefined))) throw new Error(`Endpoint ${endpoint.id} was not disabled`);
  }
}

/** Subscribes a creator who signed up themselves (not made by createTestAccount) to `plan`, as createTestAccount does. */
export async function subscribeTestCreator(cloud: Outputs, email: string, plan: Exclude<TestPlan, 'none'> = 'pro'): Promise<void> {
  await useCloudEnv(cloud);
  await subscribe(await userIdOf(email), plan);
}

/**
 * Ends a test creator's subscription as Stripe does (`customer.subscription.deleted`, canceled): the creator has no
 * plan any more, and keeps everything they made (the ended creator's journeys). Call after createTestAccount.
 */
export async function endTestSubscription(email: string, plan: Exclude<TestPlan, 'none'> = 'pro'): Promise<void> {
  const userId = await userIdOf(email);
  // A second later than the subscription's creation: Stripe's order of events is by their time.
  await applySubscriptionEvent(userId, plan, 'customer.subscription.deleted', 'canceled', Math.floor(Date.now() / 1000) + 1);
}

const AXE_TIMEOUT_MS = 60_000;

/**
 * One axe run over our own markup, given up after AXE_TIMEOUT_MS. Sandboxed frames are left out: they hold what a
 * creator or the model wrote (the landing page previews), not the app, and with scripts off in them axe waits ~30 s
 * per frame for an answer that never comes (a CI run took over 60 s and failed). If a run still hangs (once Chromium
 * never opened the blank page axe gathers frame results in), the caller runs it again: the check is the same.
 */
const axeOnce = (page: Page) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`axe did not finish within ${AXE_TIMEOUT_MS} ms`)), AXE_TIMEOUT_MS);
  });
  return Promise.race([new AxeBuilder({ page }).exclude('iframe[sandbox]').analyze(), timeout]).finally(() => clearTimeout(timer));
};

/** Signs in as the seeded admin from the sign-in page and waits for the admin dashboard. */
export async function signInAsAdmin(page: Page, cloud: Outputs): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(cloud.AdminEmail);
  await page.getByLabel('Password', { exact: true }).fill(cloud.AdminPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin$/);
}

/** axe-core on the current page: the serious and critical violations, as readable lines (QUALITY.md). */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await transitionsDone(page);
  const serious = async () => {
    const { violations } = await axeOnce(page).catch(() => axeOnce(page));
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  };
  const toastsShowing = () => page.locator('[data-sonner-toast]:not([data-removed="true"])').count();
  const toastsBefore = await toastsShowing();
  const found = await serious();
  // A toast whose time ran out while axe ran fades out (sonner marks it data-removed, then unmounts it) and fails
  // colour contrast mid-fade: once it has gone, the screen is checked again. A toast still showing is judged as it is.
  if (found.length === 0 || (await toastsShowing()) >= toastsBefore) return found;
  await transitionsDone(page);
  return serious();
}

/**
 * Lets entering elements (a toast sliding in) and state changes (a link turning active after a click: its background
 * eases while its text colour switches at once) finish their transitions: mid-fade, an element fails colour contrast
 * although the settled screen passes. A transition may start a frame after the last one ends (a re-render), so this
 * waits for two quiet frames in a row. Endless animations (spinners) are not waited for.
 */
async function transitionsDone(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    for (let round = 0; round < 20; round++) {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const running = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
      if (running.length === 0) return true;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
    return true;
  })()`);
}

/** The innermost elements that stick out past `width`, named so a failure says what to fix. */
const widest = (page: Page, width: number): Promise<string> =>
  page.evaluate(`[...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > ${width} + 0.5 && ![...el.children].some((c) => c.getBoundingClientRect().right > ${width} + 0.5))
    .slice(0, 5)
    .map((el) => el.tagName.toLowerCase() + (el.getAttribute('data-testid') ? '[data-testid=' + el.getAttribute('data-testid') + ']' : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '" right=' + Math.round(el.getBoundingClientRect().right))
    .join('; ')`);

/**
 * axe finds nothing serious; at 1280 px and at 375 px nothing sticks out sideways; a full-page screenshot at each
 * width is kept, with close-ups of the named regions (a full 375 px page is too tall to judge them by).
 */
export async function checkAndShoot(page: Page, testInfo: TestInfo, name: string, closeUps: Record<string, Locator> = {}): Promise<void> {
  expect(await seriousA11yViolations(page), name).toEqual([]);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    // Charts follow the viewport through a ResizeObserver, a frame or more after it changes (a user who opens the
    // page on a phone never sees the wide one): the page settles within a second or it is too wide.
    const scrollWidth = (): Promise<number> => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;
    await expect.poll(scrollWidth, { timeout: 1_000 }).toBeLessThanOrEqual(width).catch(() => undefined);
    const settled = await scrollWidth();
    expect(settled, `${name} at ${width}px: ${settled > width ? await widest(page, width) : ''}`).toBeLessThanOrEqual(width);
    const path = testInfo.outputPath(`${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
    await testInfo.attach(`${name}-${width}.png`, { path, contentType: 'image/png' });
    for (const [part, region] of Object.entries(closeUps)) {
      if (await region.isVisible()) await region.screenshot({ path: testInfo.outputPath(`${name}-${part}-${width}.png`), animations: 'disabled' });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

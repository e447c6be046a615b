import { chromium, type Page } from '@playwright/test';
import type { Outputs } from '#lib/local/outputs.ts';
import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';
import playwrightConfig from '../../playwright.config.ts';

// Custom domains (issue 32 point 2) in a real browser: a Pro creator adds a hostname on the Domains page, the test sets
// its TXT and CNAME in the DNS stand-in (DnsControlUrl), the creator verifies until it is active; then a browser that
// resolves that hostname to the storefront entry (StorefrontUrl, as a CNAME would reach the CloudFront tenant) opens
// it: the SPA looks its host up and shows the creator's branded page, their course, and its not-found page for
// anything else, with sign-in on the platform's address (followed there). A Starter creator sees the plan card.
// Screenshots at 1280 and 375 px.

const setRecord = async (cloud: Outputs, name: string, type: 'TXT' | 'CNAME', value: string) => {
  const res = await fetch(`${cloud.DnsControlUrl}/records`, { method: 'PUT', body: JSON.stringify({ name, type, value }) });
  expect(res.status).toBe(204);
};

/** The text of a record's Value cell in the domain's table ('TXT' or 'CNAME'). */
const recordValue = async (page: Page, hostname: string, type: 'TXT' | 'CNAME'): Promise<string> =>
  (await page.getByRole('table', { name: `DNS records to set for ${hostname}` }).getByRole('row').filter({ hasText: type }).getByRole('cell').nth(2).textContent())!.trim();

test('a Pro creator adds a domain, verifies it, and their branded storefront answers on it', async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'domains-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  const stamp = Date.now().toString(36);
  const slug = `kiln-${stamp}`;
  await api(cloud, token, 'PUT', '/api/creator/public-profile', { displayName: 'Ann Potter', slug });
  await api(cloud, token, 'PUT', '/api/branding', { schoolName: 'Clay & Kiln', primaryColor: '#0f766e' });
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: 'Throwing pots', description: 'Centre the clay, open it, pull the walls.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Centring', kind: 'text', body: '<p>Wet hands, steady elbows.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published', priceAmount: 4900 });
  const hostname = `learn-${stamp}.claykiln.test`;

  await signIn(page, creator.email, creator.password);
  await page.getByRole('link', { name: 'Domains' }).click();
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: /Hostname/ }).fill(hostname.toUpperCase());
  await page.getByRole('button', { name: 'Add domain' }).click();
  const item = page.getByRole('listitem', { name: hostname });
  await expect(item.getByText('Waiting for DNS')).toBeVisible();
  await checkAndShoot(page, testInfo, 'domains-pending');

  // The creator's DNS provider, here the stand-in: the records exactly as the page shows them.
  await setRecord(cloud, `_courseplatform-challenge.${hostname}`, 'TXT', await recordValue(page, hostname, 'TXT'));
  await setRecord(cloud, hostname, 'CNAME', await recordValue(page, hostname, 'CNAME'));
  await item.getByRole('button', { name: `Verify ${hostname}` }).click();
  await expect(item.getByText('Issuing certificate')).toBeVisible();
  // The local edge issues at the next check (in AWS, the job's, minutes later).
  await item.getByRole('button', { name: `Verify ${hostname}` }).click();
  await expect(item.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Your domain is live' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'domains-active');

  // A visitor's browser, whose DNS sends the hostname to the storefront entry (the CNAME's job): the SPA itself,
  // served as the tenant serves it, finds out whose storefront it is.
  const storefront = new URL(cloud.StorefrontUrl);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // The project's Chromium flags (playwright.config.ts), with this visitor's resolver rule in place of loopback only.
    args: [
      ...(playwrightConfig.use?.launchOptions?.args ?? []).filter((arg) => !arg.startsWith('--host-resolver-rules=')),
      `--host-resolver-rules=MAP ${hostname} ${storefront.host}, MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1`,
    ],
  });
  try {
    const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await visitor.goto(`http://${hostname}/`);
    await expect(visitor.getByRole('heading', { name: 'Ann Potter', level: 1 })).toBeVisible();
    const header = visitor.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Clay & Kiln' })).toHaveAttribute('href', '/');
    await expect(header.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `${cloud.WebUrl}/auth/login`);
    await expect(visitor.getByRole('contentinfo')).toContainText('Clay & Kiln · Powered by Course Platform');
    expect(new URL(visitor.url()).hostname).toBe(hostname);
    await checkAndShoot(visitor, testInfo, 'storefront-home');

    await visitor.getByRole('link', { name: /Throwing pots/ }).click();
    await expect(visitor.getByRole('heading', { name: 'Throwing pots', level: 1 })).toBeVisible();
    await expect(visitor.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', `${cloud.WebUrl}/c/${course.id}`);
    await checkAndShoot(visitor, testInfo, 'storefront-course');

    // Sign-in is not on this domain: its not-found page, linking to the platform.
    const answer = await visitor.goto(`http://${hostname}/auth/login`);
    expect(answer?.status()).toBe(404);
    await expect(visitor.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
    await expect(visitor.getByRole('link', { name: 'Go to Course Platform' })).toHaveAttribute('href', cloud.WebUrl);
    await expect(visitor.getByRole('link', { name: 'Go to Clay & Kiln' })).toHaveAttribute('href', '/');
    await checkAndShoot(visitor, testInfo, 'storefront-not-found');

    // 'Sign in' leaves the domain for the platform's own sign-in page, where accounts are.
    await visitor.getByRole('link', { name: 'Go to Clay & Kiln' }).click();
    await expect(visitor.getByRole('heading', { name: 'Ann Potter', level: 1 })).toBeVisible();
    await visitor.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
    await expect(visitor).toHaveURL(`${cloud.WebUrl}/auth/login`);
    await expect(visitor.getByLabel('Password', { exact: true })).toBeVisible();
  } finally {
    await browser.close();
  }
});

test('a Starter creator sees that custom domains are a Pro feature', async ({ page, cloud }, testInfo) => {
  const creator = await createTestAccount(cloud, 'creator', 'domains-starter', { plan: 'starter' });
  await signIn(page, creator.email, creator.password);
  // Signed in first (the dashboard), then the page by its address.
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto('/dashboard/creator/domains');
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await expect(page.getByText('Custom domains are a Pro feature')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add domain' })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'domains-starter');
});

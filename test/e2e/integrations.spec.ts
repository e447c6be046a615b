import type { Page } from '@playwright/test';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';
import { signIn } from './support/api.ts';

// Live Session Integrations in a real browser against the local cloud (issue 11, made real by issue 30): a new creator
// switches Zoom on, enters the Zoom stand-in's demo Server-to-Server OAuth app, saves, and sees Zoom Connected (the
// stand-in gave a token and answered); a wrong secret saves but shows Disconnected with Zoom's reason; 'Test
// connection' checks again. Screenshots at 1280 px and 375 px land in the test's output folder.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });
const statusOf = (page: Page, service: string) => page.getByRole('list', { name: 'Integration status' }).getByRole('listitem').filter({ hasText: service });
const zoomRefusal = 'Zoom refused the API Key or API Secret ("Invalid client_id or client_secret")';

test('a creator connects Zoom with the demo app, sees a wrong secret refused with Zoom’s reason, and tests the connection', async ({ page, cloud }, testInfo) => {
  const { email, password } = await createTestAccount(cloud, 'creator', 'integrations');
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);

  await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'integrations', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/integrations$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Live Session Integrations' })).toBeVisible();
  await expect(statusOf(page, 'Zoom')).toContainText('Disconnected');
  await expect(page.getByLabel('API Key')).toBeDisabled();
  await checkAndShoot(page, testInfo, 'integrations-default');

  // The demo app: Connected once saved, because Zoom (the stand-in) gave a token and answered.
  await page.getByRole('switch', { name: 'Enable Zoom' }).click();
  await page.getByLabel('Account ID').fill(cloud.ZoomAccountId);
  await page.getByLabel('API Key').fill(cloud.ZoomClientId);
  await page.getByLabel('API Secret').fill(cloud.ZoomClientSecret);
  await page.getByRole('button', { name: 'Save Integrations' }).click();
  await expect(toast(page, 'Integrations saved')).toContainText('Your integration settings have been updated successfully.');
  await expect(statusOf(page, 'Zoom')).toContainText('Connected');
  await expect(statusOf(page, 'Zoom')).not.toContainText('Disconnected');

  await page.reload();
  await expect(statusOf(page, 'Zoom')).toContainText('Connected');
  await expect(statusOf(page, 'Microsoft Teams')).toContainText('Disconnected');
  await expect(page.getByLabel('API Secret')).toHaveValue('');
  await expect(page.getByLabel('API Secret')).toHaveAttribute('placeholder', 'Saved — leave blank to keep');
  expect(await page.content()).not.toContain(cloud.ZoomClientSecret);
  await page.getByRole('button', { name: 'Test connection: Zoom' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Zoom accepted the saved settings.' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'integrations-connected');

  // A wrong secret: saved, but Disconnected with Zoom's reason under it, and the test says the same.
  await page.getByLabel('API Secret').fill('not-the-demo-secret');
  await page.getByRole('button', { name: 'Save Integrations' }).click();
  await expect(statusOf(page, 'Zoom')).toContainText('Disconnected');
  await expect(statusOf(page, 'Zoom')).toContainText(zoomRefusal);
  await page.getByRole('button', { name: 'Test connection: Zoom' }).click();
  await expect(page.getByRole('status').filter({ hasText: zoomRefusal })).toBeVisible();
  await checkAndShoot(page, testInfo, 'integrations-refused', { status: page.getByRole('list', { name: 'Integration status' }) });
});

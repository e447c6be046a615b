import type { Page } from '@playwright/test';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';
import { signIn } from './support/api.ts';

// Google Calendar by the creator's consent (issue 30, decision 0047) in a real browser against the local cloud: the
// creator presses "Connect Google Calendar", sees Google's consent screen (the stand-in) with the account and the
// calendar scope, presses Allow, and is back on the Integrations screen, told it is connected, with Google switched on
// and its calendar set. Cancel brings them back with the reason. Screenshots at 1280 px and 375 px.

const statusOf = (page: Page, service: string) => page.getByRole('list', { name: 'Integration status' }).getByRole('listitem').filter({ hasText: service });

const openIntegrations = async (page: Page, email: string, password: string) => {
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'integrations', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/integrations$/);
};

test('a creator connects Google Calendar: consent screen, Allow, back on Integrations connected', async ({ page, cloud }, testInfo) => {
  const { email, password } = await createTestAccount(cloud, 'creator', 'google-consent');
  await openIntegrations(page, email, password);
  await expect(statusOf(page, 'Google Calendar')).toContainText('Disconnected');
  await expect(page.getByRole('switch', { name: 'Enable Google Calendar' })).not.toBeChecked();
  await checkAndShoot(page, testInfo, 'google-connect-before');

  // With the keyboard: the button is reachable and pressed with Enter.
  await page.getByRole('button', { name: 'Connect Google Calendar' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`^${cloud.GoogleOAuthUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\?`));
  await expect(page.getByRole('heading', { name: 'Course Platform wants to access your Google Account' })).toBeVisible();
  await expect(page.getByText('demo.creator@gmail.example')).toBeVisible();
  await expect(page.getByText('View and edit events on all your calendars')).toBeVisible();
  await checkAndShoot(page, testInfo, 'google-consent-screen');
  await page.getByRole('button', { name: 'Allow' }).click();

  await expect(page).toHaveURL(/\/dashboard\/creator\/integrations$/);
  await expect(page.getByRole('status').filter({ hasText: 'Google Calendar is connected.' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Enable Google Calendar' })).toBeChecked();
  await expect(page.getByLabel('Calendar ID')).toHaveValue('primary');
  await expect(statusOf(page, 'Google Calendar')).toContainText('Connected');
  // Consented once: the button now offers to do it again.
  await expect(page.getByRole('button', { name: 'Reconnect Google Calendar' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'google-connected');
});

test('a creator who cancels on Google is back on Integrations, told it was not connected', async ({ page, cloud }, testInfo) => {
  const { email, password } = await createTestAccount(cloud, 'creator', 'google-cancel');
  await openIntegrations(page, email, password);
  await page.getByRole('button', { name: 'Connect Google Calendar' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/integrations$/);
  await expect(page.getByRole('status').filter({ hasText: 'Google Calendar was not connected' })).toContainText('Google Calendar was not connected: access was not allowed on Google’s screen.');
  await expect(statusOf(page, 'Google Calendar')).toContainText('Disconnected');
  await checkAndShoot(page, testInfo, 'google-cancelled');
});

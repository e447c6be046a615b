import { copyFileSync, mkdirSync } from 'node:fs';
import { checkAndShoot, createTestAccount, expect, signInAsAdmin, test } from './support/cloud.ts';

// The admin audit log (issue 37 point 3) in a real browser against the local cloud: an admin disables an account from
// the Users screen, and the Audit page shows it first, with the admin and the account, and under its action's filter.

test("an admin's disabling of an account is on the Audit page with the admin and the account", async ({ page, cloud }, testInfo) => {
  const creator = await createTestAccount(cloud, 'creator', 'audited-creator');
  await signInAsAdmin(page, cloud);
  await page.goto('/dashboard/admin/users');
  const row = page.getByRole('region', { name: 'Creators' }).getByRole('row').filter({ hasText: creator.email });
  await row.getByRole('button', { name: `Disable ${creator.email}` }).click();
  await page.getByRole('alertdialog', { name: 'Disable this account?' }).getByRole('button', { name: 'Disable account' }).click();
  await expect(row).toContainText('Disabled');

  await page.getByRole('navigation', { name: 'Insights' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/audit$/);
  const first = page.getByRole('region', { name: 'Audit log' }).getByRole('row').nth(1);
  await expect(first).toContainText('Account disabled');
  await expect(first).toContainText(cloud.AdminEmail);
  await expect(first).toContainText(creator.email);
  await checkAndShoot(page, testInfo, 'audit-log');

  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Role changed' }).click();
  await expect(page.getByRole('region', { name: 'Audit log' }).or(page.getByText('No "Role changed" entries'))).toBeVisible();
  await expect(page.getByText(creator.email)).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Account disabled' }).click();
  await expect(page.getByRole('region', { name: 'Audit log' }).getByRole('row').nth(1)).toContainText(creator.email);
  await checkAndShoot(page, testInfo, 'audit-log-disabled');

  // The screenshots, also where the engineer looks at them (.shots/ is not committed).
  mkdirSync('.shots', { recursive: true });
  for (const name of ['audit-log', 'audit-log-disabled']) for (const width of [1280, 375]) copyFileSync(testInfo.outputPath(`${name}-${width}.png`), `.shots/${name}-${width}.png`);
});

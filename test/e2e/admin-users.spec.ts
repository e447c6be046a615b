import { checkAndShoot, expect, signInAsAdmin, test } from './support/cloud.ts';

// User management (issue 11 point 4) in a real browser against the local cloud: the admin invites a group leader from
// the Users screen, finds them first among group leaders, and the invitation is in SES local.

interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}

test('an admin invites a group leader, sees them listed first, and the invitation is emailed', async ({ page, cloud }, testInfo) => {
  const email = `invited-leader-${Date.now()}@example.com`;
  await signInAsAdmin(page, cloud);

  await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'users' }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/users$/);
  await expect(page.getByRole('region', { name: 'Creators' }).getByRole('table')).toBeVisible();
  await checkAndShoot(page, testInfo, 'users-creators');

  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('Email').fill(email);
  await expect(dialog.getByRole('combobox', { name: 'Role' })).toHaveText('Group leader');
  await checkAndShoot(page, testInfo, 'users-add-dialog');
  await dialog.getByRole('button', { name: 'Invite user' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'User invited' })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const leaders = page.getByRole('region', { name: 'Group leaders' }).getByRole('table');
  await expect(leaders).toBeVisible();
  await expect(leaders.getByRole('row').nth(1)).toContainText(email);

  const { emails } = (await (await fetch(`${cloud.SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
  const invitation = emails.filter((m) => m.destination.to.includes(email));
  expect(invitation).toHaveLength(1);
  expect(invitation[0]!.subject).toBe('Your Course Platform account is ready');
  expect(invitation[0]!.body.text).toMatch(/Temporary password: \S{16,}/);
});

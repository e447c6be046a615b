import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 31 in a real browser against the local cloud: a Pro creator's Developers page (no keys yet, a key created with
// two scopes and shown once, listed by its prefix and last four, working on /v1 from outside, the generated API
// reference, the key revoked behind a confirmation and refused) and a Starter creator's plan card; each screenshotted
// at 1280 and 375 px.

test('a Pro creator creates an API key, sees it once, finds it listed by its ends, and revokes it', async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'developers-creator');
  await signIn(page, creator.email, creator.password);
  await page.getByRole('link', { name: 'Developers' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/developers/);
  await expect(page.getByRole('heading', { name: 'Developers', level: 1 })).toBeVisible();
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await checkAndShoot(page, testInfo, 'developers-empty');

  await page.getByRole('button', { name: 'Create API key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await create.getByRole('button', { name: 'Create key' }).click();
  await expect(create.getByText('Name the key.')).toBeVisible();
  await create.getByLabel('Name').fill('CRM sync');
  await create.getByRole('checkbox', { name: 'Read courses' }).check();
  await create.getByRole('checkbox', { name: 'Enrol and remove learners' }).check();
  await create.getByRole('button', { name: 'Create key' }).click();

  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  const field = shown.getByRole('textbox', { name: 'API key' });
  await expect(field).toHaveValue(/^cp_[A-Za-z0-9_-]{40,}$/);
  const key = await field.inputValue();
  await expect(shown.getByText('Copy it now: it will not be shown again.')).toBeVisible();
  await checkAndShoot(page, testInfo, 'developers-key-shown');
  await shown.getByRole('button', { name: 'Done' }).click();

  // Listed by its prefix and last four only; the server keeps no copy of the key itself.
  const keys = page.getByRole('region', { name: 'API keys' });
  const row = keys.getByRole('row').filter({ hasText: 'CRM sync' });
  await expect(row).toContainText(key.slice(-4));
  await expect(row).toContainText('Never used');
  await expect(row).toContainText('courses:read');
  await expect(row).toContainText('enrollments:write');
  await expect(page.locator('body')).not.toContainText(key);
  const token = await accessToken(cloud, creator.email, creator.password);
  const listed = await api<{ items: { name: string; prefix: string; last4: string }[] }>(cloud, token, 'GET', '/api/api-keys');
  expect(listed.items).toEqual([expect.objectContaining({ name: 'CRM sync', prefix: key.slice(0, 8), last4: key.slice(-4) })]);
  expect(JSON.stringify(listed)).not.toContain(key);
  await checkAndShoot(page, testInfo, 'developers-keys');

  // The key works from outside, as an integration calls the public API with it.
  const outside = () => fetch(`${cloud.ApiUrl}/v1/courses`, { headers: { authorization: `Bearer ${key}` } });
  expect((await outside()).status).toBe(200);

  // The API reference: the generated document, every operation listed.
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/developers\/api$/);
  await expect(page.getByText('List your courses').first()).toBeVisible();
  await expect(page.getByText('Enrol a learner').first()).toBeVisible();
  await checkAndShoot(page, testInfo, 'developers-api-reference');
  await page.goBack();

  // Revoke: asked first, by name; Cancel keeps it.
  await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke CRM sync?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
  await page.getByRole('alertdialog', { name: 'Revoke CRM sync?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('No API keys yet')).toBeVisible();
  expect((await api<{ items: unknown[] }>(cloud, token, 'GET', '/api/api-keys')).items).toEqual([]);
  expect((await outside()).status).toBe(401);
});

test("a Starter creator is shown what API access needs instead of the key form", async ({ page, cloud }, testInfo) => {
  const creator = await createTestAccount(cloud, 'creator', 'developers-starter', { plan: 'starter' });
  await signIn(page, creator.email, creator.password);
  await page.getByRole('link', { name: 'Developers Pro' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/developers/);
  await expect(page.getByText('API keys are a Pro feature')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'developers-starter');
});

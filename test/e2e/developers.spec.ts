import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, disableTestWebhookEndpoints, expect, test } from './support/cloud.ts';

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

test('a Pro creator adds a webhook endpoint, is sent a signed enrolment, sees it delivered in the log, and deletes the endpoint', async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  // The creator's own server: a receiver on loopback (the local cloud alone admits http://127.0.0.1).
  const received: { headers: Record<string, string>; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  try {
    const creator = await createTestAccount(cloud, 'creator', 'webhooks-creator');
    await signIn(page, creator.email, creator.password);
    await page.getByRole('link', { name: 'Developers' }).click();
    await expect(page.getByText('No webhook endpoints yet')).toBeVisible();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await form.getByRole('textbox', { name: /Endpoint URL/ }).fill(url);
    await form.getByRole('checkbox', { name: /A learner is enrolled in a course/ }).check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Your signing secret' });
    const secret = await shown.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await checkAndShoot(page, testInfo, 'webhooks-secret-shown');
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('button', { name: `Deliveries to ${url}` })).toBeVisible();
    await expect(page.locator('body')).not.toContainText(secret);

    // Something happens: a learner is enrolled; the endpoint is told, signed with its secret.
    const token = await accessToken(cloud, creator.email, creator.password);
    const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: 'Webhook course', description: 'Told of it.' });
    await api(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: `webhook-learner-${Date.now()}@example.com` });
    await expect.poll(() => received.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const [delivery] = received;
    const payload = new Webhook(secret).verify(delivery!.body, delivery!.headers) as { type: string; data: { courseId: string } };
    expect(payload).toMatchObject({ type: 'enrollment.created', data: { courseId: course.id } });

    await page.getByRole('button', { name: `Deliveries to ${url}` }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries' });
    await expect(log.getByRole('row').filter({ hasText: 'enrollment.created' })).toContainText(/delivered/i);
    await checkAndShoot(page, testInfo, 'webhooks-deliveries');
    await page.keyboard.press('Escape');
    await checkAndShoot(page, testInfo, 'webhooks-endpoints');

    // Days of failures later the sweep has disabled it: the card says why, and Enable turns it back on.
    await disableTestWebhookEndpoints(cloud, creator.email);
    await page.reload();
    const endpoint = page.getByRole('listitem', { name: url });
    await expect(endpoint).toContainText('Disabled');
    await expect(endpoint).toContainText('Every delivery failed for 5 days');
    await checkAndShoot(page, testInfo, 'webhooks-disabled');
    await endpoint.getByRole('button', { name: `Enable ${url}` }).click();
    await expect(page.getByText('Endpoint enabled')).toBeVisible();
    await expect(endpoint).not.toContainText('Disabled');

    await page.getByRole('button', { name: `Delete ${url}` }).click();
    await page.getByRole('alertdialog', { name: `Delete ${url}?` }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No webhook endpoints yet')).toBeVisible();
  } finally {
    receiver.close();
  }
});

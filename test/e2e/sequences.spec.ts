import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Email sequences (issue 33 part 2) in a real browser: a creator with no sequence yet writes one on the Sequences page
// (a trigger on one course, two emails with the placeholders, the preview with a sample learner in that course), finds it listed with
// its steps and counts, switches it off, and deletes it after a confirmation. The sending itself is proven against the
// local cloud by test/integration/sequences.test.ts. Screenshots at 1280 px and 375 px.

test('a creator writes an email sequence with a preview, finds it listed, switches it off and deletes it', async ({ page, cloud }, testInfo) => {
  test.setTimeout(120_000);
  const creator = await createTestAccount(cloud, 'creator', 'sequences-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: 'Watercolour basics', description: 'Washes, glazes and wet on wet.' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });

  await signIn(page, creator.email, creator.password);
  await page.getByRole('link', { name: 'Sequences' }).click();
  await expect(page.getByRole('heading', { name: 'Sequences', level: 1 })).toBeVisible();
  await expect(page.getByText('No sequences yet')).toBeVisible();
  await checkAndShoot(page, testInfo, 'sequences-empty');

  await page.getByRole('button', { name: 'New sequence' }).first().click();
  const editor = page.getByRole('dialog', { name: 'New sequence' });
  await editor.getByLabel('Name', { exact: true }).fill('Welcome to watercolour');
  await editor.getByLabel('Trigger', { exact: true }).selectOption({ label: 'Enrolled in a course' });
  await editor.getByLabel('Course', { exact: true }).selectOption({ label: 'Watercolour basics' });
  await editor.getByLabel('Subject of email 1').fill('Welcome to {{courseTitle}}');
  await editor.getByLabel('Email 1 (Markdown)').fill('Hello {{learnerName}}, your **first wash** is waiting.');
  await editor.getByRole('button', { name: 'Add email' }).click();
  await editor.getByLabel('Subject of email 2').fill('How is {{courseTitle}} going?');
  await editor.getByLabel('Email 2 (Markdown)').fill('Two lessons in, {{learnerName}}: try the glaze.');
  const preview = editor.getByRole('region', { name: 'Preview' });
  await expect(preview).toContainText('Subject: Welcome to Watercolour basics');
  await expect(preview).toContainText('Hello Alex Sample');
  await editor.getByRole('button', { name: 'Preview email 2' }).click();
  await expect(preview).toContainText('Two lessons in, Alex Sample: try the glaze.');
  await expect(preview).toContainText('Subject: How is Watercolour basics going?');
  await checkAndShoot(page, testInfo, 'sequences-editor', { editor });
  await editor.getByRole('button', { name: 'Save sequence' }).click();
  await expect(editor).toBeHidden();

  const list = page.getByRole('list', { name: 'Sequences' });
  const item = list.getByRole('listitem').filter({ hasText: 'Welcome to watercolour' });
  await expect(item).toContainText('Watercolour basics');
  await expect(item).toContainText('Day 0');
  await expect(item).toContainText('+3 days');
  await expect(item).toContainText('0 entered · 0 unsubscribed');
  await checkAndShoot(page, testInfo, 'sequences-list');
  const saved = await api<{ items: { name: string; active: boolean; steps: unknown[]; trigger: { kind: string; courseId: string | null } }[] }>(cloud, token, 'GET', '/api/sequences');
  expect(saved.items).toEqual([expect.objectContaining({ name: 'Welcome to watercolour', active: true, trigger: expect.objectContaining({ kind: 'enrolled', courseId: course.id }) })]);
  expect(saved.items[0]!.steps).toHaveLength(2);

  // Off with its switch (kept, sending nothing), then deleted: asked first, by name.
  await item.getByRole('switch').click();
  await expect(item.getByText('Off', { exact: true })).toBeVisible();
  await expect.poll(async () => (await api<{ items: { active: boolean }[] }>(cloud, token, 'GET', '/api/sequences')).items[0]?.active).toBe(false);
  await item.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete “Welcome to watercolour”?' });
  await confirm.getByRole('button', { name: 'Delete sequence' }).click();
  await expect(page.getByText('No sequences yet')).toBeVisible();
  expect((await api<{ items: unknown[] }>(cloud, token, 'GET', '/api/sequences')).items).toEqual([]);
});

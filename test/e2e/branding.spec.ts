import type { Page } from '@playwright/test';
import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Branding (issue 32 point 1) in a real browser: a Pro creator names their school, picks its colour and uploads its
// logo (straight to the S3 emulator) on the Branding page, with the live preview; a visitor then sees the school's
// logo, name and colour on the creator's page and the course's page. Screenshots at 1280 px and 375 px.

/** A wide PNG logo drawn by the browser (a real image, so the screenshots show one). */
const drawnLogo = async (page: Page): Promise<Buffer> =>
  Buffer.from(
    (await page.evaluate(`(async () => {
      const canvas = new OffscreenCanvas(240, 64);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#0f766e';
      ctx.beginPath();
      ctx.arc(32, 32, 28, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = '#f59e0b';
      ctx.fillRect(72, 18, 150, 28);
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      return [...new Uint8Array(await blob.arrayBuffer())];
    })()`)) as number[],
  );

test('a Pro creator brands their school and visitors see it on the creator and course pages', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(120_000);
  const creator = await createTestAccount(cloud, 'creator', 'branding-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  const slug = `kiln-${Date.now().toString(36)}`;
  await api(cloud, token, 'PUT', '/api/creator/public-profile', { displayName: 'Ann Potter', slug });
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: 'Throwing pots', description: 'Centre the clay, open it, pull the walls.' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published', priceAmount: 4900 });

  await signIn(page, creator.email, creator.password);
  await page.getByRole('link', { name: 'Branding' }).click();
  await expect(page.getByRole('heading', { name: 'Branding', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: /School name/ }).fill('Clay & Kiln');
  const hex = page.getByRole('textbox', { name: /Primary colour/ });
  await hex.fill('#0f766e');
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByTestId('preview-button')).toHaveCSS('background-color', 'rgb(15, 118, 110)');
  await expect(preview.getByTestId('contrast-note')).toContainText('white');
  await page.getByTestId('logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await drawnLogo(page) });
  await expect(page.getByText(/Save to use the new logo/)).toBeVisible();
  await checkAndShoot(page, testInfo, 'branding-page');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Branding saved' })).toBeVisible();

  // A visitor, never signed in.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/u/${slug}`);
  const header = visitor.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Clay & Kiln' })).toBeVisible();
  await expect(header.getByTestId('school-logo')).toBeVisible();
  await expect.poll(() => header.getByTestId('school-logo').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(240);
  await checkAndShoot(visitor, testInfo, 'branded-creator-page');
  await visitor.goto(`/c/${course.id}`);
  await expect(visitor.getByRole('heading', { name: 'Throwing pots', level: 1 })).toBeVisible();
  await expect(visitor.getByRole('banner').getByRole('link', { name: 'Clay & Kiln' })).toHaveAttribute('href', `/u/${slug}`);
  await expect(visitor.getByRole('contentinfo')).toContainText('Clay & Kiln · Powered by Course Platform');
  await checkAndShoot(visitor, testInfo, 'branded-course-page');
  await visitor.context().close();
});

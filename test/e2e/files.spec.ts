import { mkdirSync } from 'node:fs';
import type { Page, Route } from '@playwright/test';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Course files (issue 10 point 2) in a real browser against the local cloud and its S3 emulator: a creator uploads a
// lesson's video (multipart, straight to the storage; the first PUT of part 2 is cut off like a dropped connection
// and the upload still completes) and a PDF attachment; a learner enrolled in the published course plays the video
// and downloads the attachment through signed URLs. Screenshots of both screens at 1280 px and 375 px.

const SHOTS = '/tmp/shots-files';
const MiB = 1024 * 1024;
const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a creator uploads a video through a dropped connection and a PDF, and an enrolled learner plays and downloads them', async ({ page, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'files');
  const learner = await createTestAccount(cloud, 'learner', 'files-learner');
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);

  await page.goto('/dashboard/creator/create');
  await page.getByLabel('Course title').fill('Watercolour with files');
  await page.getByLabel('Description').fill('Videos and handouts.');
  await page.getByRole('button', { name: 'Create course' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/courses\/[^/]+$/);
  const courseId = new URL(page.url()).pathname.split('/').pop()!;

  // The storage's first answer to part 2 never comes: the connection is cut once the bar has been photographed
  // mid-way (held until then, not for a fixed time). The uploader retries it with a fresh URL.
  let cutOff = false;
  let photographed!: () => void;
  const midwayShot = new Promise<void>((resolve) => (photographed = resolve));
  await page.route(
    (url) => url.href.startsWith(cloud.FilesEndpoint) && url.searchParams.get('partNumber') === '2',
    async (route: Route) => {
      if (route.request().method() === 'PUT' && !cutOff) {
        cutOff = true;
        await midwayShot;
        return route.abort('connectionreset');
      }
      return route.continue();
    },
  );

  // A video lesson whose video is uploaded: ~9 MB, two parts of the server's 8 MiB.
  await page.getByRole('button', { name: 'Add lesson' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add lesson' });
  await dialog.getByLabel('Lesson title').fill('First wash');
  await dialog.getByRole('radio', { name: 'Video' }).check();
  await dialog.getByRole('radio', { name: 'Upload a video' }).check();
  await dialog.getByLabel('Video file').setInputFiles({ name: 'wash.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(9 * MiB, 7) });
  await dialog.getByRole('button', { name: 'Add lesson' }).click();
  await expect(dialog).toBeHidden();

  const bar = page.getByRole('progressbar', { name: 'Uploading wash.mp4' });
  await expect(bar).toBeVisible();
  await expect(page.getByTestId('upload-progress')).toContainText(/\d+% · [\d.]+ MB of 9 MB/);
  await shoot(page, 'editor-uploading');
  photographed();
  await expect(toast(page, 'Video uploaded')).toBeVisible({ timeout: 60_000 });
  expect(cutOff).toBe(true);
  await expect(bar).toBeHidden();
  await expect(page.getByTestId('lesson-video-file')).toHaveText('wash.mp4 · 9 MB');

  // A small PDF attachment on the same lesson.
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  await page.getByLabel('Attachment file for First wash').setInputFiles({ name: 'palette.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(toast(page, 'Attachment added')).toBeVisible();
  const attachments = page.getByRole('region', { name: 'Attachments of First wash' });
  await expect(attachments).toContainText('palette.pdf');

  // The creator's preview plays from a signed URL of the storage.
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByLabel('Preview: wash.mp4')).toHaveAttribute('src', new RegExp(`^${cloud.FilesEndpoint}`));
  await checkAndShoot(page, testInfo, 'files-editor', { lessons: page.getByRole('region', { name: 'Lessons' }) });

  // Publish and enrol the (existing) learner.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(toast(page, 'Course published')).toBeVisible();
  await page.getByLabel('Learner email').fill(learner.email);
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(toast(page, 'Learner enrolled')).toBeVisible();

  // The learner: the video plays from a signed URL, the attachment downloads under its name.
  await page.context().clearCookies();
  await page.evaluate('window.localStorage.clear()');
  await signIn(page, learner.email, learner.password);
  await expect(page).toHaveURL(/\/dashboard\/learner$/);
  await page.goto(`/dashboard/learner/courses/${courseId}`);
  await expect(page.getByRole('heading', { level: 2, name: 'First wash' })).toBeVisible();
  await expect(page.getByTestId('uploaded-video')).toHaveAttribute('src', new RegExp(`^${cloud.FilesEndpoint}`));
  const learnerAttachments = page.getByRole('region', { name: 'Attachments' });
  await expect(learnerAttachments).toContainText('palette.pdf');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download palette.pdf' }).click()]);
  expect(download.suggestedFilename()).toBe('palette.pdf');
  await shoot(page, 'player-attachments');
  await checkAndShoot(page, testInfo, 'files-player');
});

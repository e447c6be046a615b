import type { Page } from '@playwright/test';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// The course builder (issue 10, point 1 and the creator's half of point 3) in a real browser against the local
// cloud: a NEW creator creates a course, adds a text lesson (toolbar + preview) and a video lesson (live
// youtube-nocookie preview), reorders them with the keyboard-reachable buttons, publishes the course, invites a
// learner by email and sees them listed. axe and screenshots at 1280 px and 375 px of My Courses and the editor.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });
const lessonRows = (page: Page) => page.getByTestId('lesson-row');

async function signInAsNewCreator(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
}

test.describe('course builder', () => {
  test('a creator builds a course with a text and a video lesson, reorders, publishes and invites a learner', async ({ page, cloud }, testInfo) => {
    // Several axe runs and full-page shots at two widths, on a shared machine.
    test.setTimeout(300_000);
    const { email, password } = await createTestAccount(cloud, 'creator', 'courses');
    await signInAsNewCreator(page, email, password);

    // My Courses starts empty and leads to Create Course.
    await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'My Courses', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'No courses yet' })).toBeVisible();
    await page.getByRole('link', { name: 'Create Course' }).last().click();
    await expect(page).toHaveURL(/\/dashboard\/creator\/create$/);

    await page.getByLabel('Course title').fill('Watercolour for Beginners');
    await page.getByLabel('Description').fill('Paint with confidence in six short lessons.');
    await page.getByRole('button', { name: 'Create course' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator\/courses\/[^/]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Watercolour for Beginners' })).toBeVisible();

    // A text lesson, written with the toolbar.
    await page.getByRole('button', { name: 'Add lesson' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add lesson' });
    await dialog.getByLabel('Lesson title').fill('Colour theory');
    await dialog.getByRole('button', { name: 'Heading' }).click();
    await dialog.getByLabel('Lesson text').pressSequentially('Warm and cool');
    await dialog.getByLabel('Lesson text').press('Enter');
    await dialog.getByLabel('Lesson text').press('Enter');
    await dialog.getByLabel('Lesson text').pressSequentially('Mix **two** colours.');
    await expect(dialog.getByRole('region', { name: 'Text preview' }).getByRole('heading', { name: 'Warm and cool' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Add lesson' }).click();
    await expect(toast(page, 'Lesson added')).toBeVisible();
    await expect(dialog).toBeHidden();

    // A video lesson by URL, with the privacy-enhanced player as its preview.
    await page.getByRole('button', { name: 'Add lesson' }).click();
    dialog = page.getByRole('dialog', { name: 'Add lesson' });
    await dialog.getByLabel('Lesson title').fill('First wash');
    await dialog.getByRole('radio', { name: 'Video' }).check();
    await dialog.getByLabel('Video URL').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await expect(dialog.locator('iframe')).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await dialog.getByRole('button', { name: 'Add lesson' }).click();
    await expect(dialog).toBeHidden();
    await expect(lessonRows(page)).toHaveCount(2);
    await expect(lessonRows(page).nth(0)).toContainText('Colour theory');

    // Reorder with the keyboard: the video first.
    await page.getByRole('button', { name: 'Move First wash up' }).focus();
    await page.keyboard.press('Enter');
    await expect(lessonRows(page).nth(0)).toContainText('First wash');
    await page.reload();
    await expect(lessonRows(page).nth(0)).toContainText('First wash');
    await expect(lessonRows(page).nth(1)).toContainText('Colour theory');

    // Publish.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(toast(page, 'Course published')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();

    // Invite a learner by email: a new account, an invitation, and the learner in the list at 0%.
    const learnerEmail = `courses-learner-${Date.now()}@example.com`;
    await page.getByLabel('Learner email').fill(learnerEmail);
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect(toast(page, 'Invitation sent')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: `${learnerEmail}: 0% complete` })).toBeVisible();

    await checkAndShoot(page, testInfo, 'course-editor', {
      lessons: page.getByRole('region', { name: 'Lessons' }),
      learners: page.getByRole('region', { name: 'Learners' }),
    });

    // My Courses lists it as published with its lessons and learner.
    await page.getByRole('link', { name: 'My Courses' }).first().click();
    const card = page.getByTestId('course-card');
    await expect(card).toContainText('Published');
    await expect(card).toContainText('2 lessons · 1 learner');
    await checkAndShoot(page, testInfo, 'my-courses');
  });
});

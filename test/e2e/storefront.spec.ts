import type { Page } from '@playwright/test';
import type { Outputs } from '#lib/local/outputs.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// The storefront (issue 12 points 2 and 7) in a real browser against the local cloud: a NEW creator builds and
// publishes a course, prices it, sets a public profile with a picture (uploaded straight to the S3 emulator); a
// visitor in a browser of their own, never signed in, opens the creator's page, then the course's page, and sees
// title, lessons, price and 'Buy now' (the creator has not connected Stripe: buying says the course is not on sale
// yet). A learner of that creator finds another of their courses under Browse. Screenshots at 1280 px and 375 px.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

async function signIn(page: Page, email: string, password: string, home: RegExp): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(home);
}

/** A 256 px PNG portrait stand-in, drawn by the browser (a real image, so the screenshots show a real picture). */
const drawnPicture = async (page: Page): Promise<Buffer> =>
  Buffer.from(
    (await page.evaluate(`(async () => {
      const canvas = new OffscreenCanvas(256, 256);
      const ctx = canvas.getContext('2d');
      const gradient = ctx.createLinearGradient(0, 0, 256, 256);
      gradient.addColorStop(0, '#f59e0b');
      gradient.addColorStop(1, '#be123c');
      ctx.fillStyle = gradient;
      ctx.fillRect(0, 0, 256, 256);
      ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
      ctx.beginPath();
      ctx.arc(128, 104, 52, 0, Math.PI * 2);
      ctx.fill();
      ctx.beginPath();
      ctx.ellipse(128, 250, 96, 80, 0, 0, Math.PI * 2);
      ctx.fill();
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      return [...new Uint8Array(await blob.arrayBuffer())];
    })()`)) as number[],
  );

/** A creator's course made the way the API makes one (the real use cases against this run's local cloud): set-up only. */
async function seedCourse(cloud: Outputs, creatorEmail: string, course: { title: string; description: string; priceAmount: number; lessons: string[] }): Promise<string> {
  await createTestAccount(cloud, 'learner', 'storefront-env'); // points this process at the local cloud
  const { getDeps, courseRepository, enrollmentRepository, clock, ids } = await import('#functions/composition/deps.ts');
  const { createCourse, updateCourse } = await import('#core/courses/courses.ts');
  const { createLesson } = await import('#core/courses/lessons.ts');
  const { sanitizeLessonHtml } = await import('#adapters/html-sanitizer.ts');
  const creatorId = (await getDeps().users.getUserIdByEmail(creatorEmail))!;
  const { courseChangeJobs } = await import('#functions/composition/course-jobs.ts');
  const deps = { courses: courseRepository(), enrollments: enrollmentRepository(), clock, ids, sanitize: sanitizeLessonHtml, jobs: courseChangeJobs() };
  const created = await createCourse(deps, { creatorId, body: { title: course.title, description: course.description } });
  for (const title of course.lessons) {
    await createLesson(deps, { creatorId, courseId: created.id, body: { title, kind: 'text', body: `<p>${title}</p>` } });
  }
  await updateCourse(deps, { creatorId, courseId: created.id, body: { status: 'published', priceAmount: course.priceAmount } });
  return created.id;
}

test('a creator sets a public profile and prices a published course; a visitor sees the creator page and the course storefront', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'storefront');
  await signIn(page, creator.email, creator.password, /\/dashboard\/creator$/);

  // A course with a text and a video lesson, published and priced at £29.
  await page.goto('/dashboard/creator/create');
  await page.getByLabel('Course title').fill('Knife Skills for Home Cooks');
  await page.getByLabel('Description').fill('Hold, sharpen and use a chef’s knife safely: from the claw grip to a perfect dice, in short practical lessons.');
  await page.getByRole('button', { name: 'Create course' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/courses\/[^/]+$/);
  const courseId = new URL(page.url()).pathname.split('/').pop()!;
  for (const [title, kind] of [
    ['Choosing your knife', 'Text'],
    ['The claw grip', 'Video'],
  ] as const) {
    await page.getByRole('button', { name: 'Add lesson' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add lesson' });
    await dialog.getByLabel('Lesson title').fill(title);
    if (kind === 'Video') {
      await dialog.getByRole('radio', { name: 'Video' }).check();
      await dialog.getByLabel('Video URL').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    } else {
      await dialog.getByLabel('Lesson text').fill('A good knife is a safe knife.');
    }
    await dialog.getByRole('button', { name: 'Add lesson' }).click();
    await expect(dialog).toBeHidden();
  }
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(toast(page, 'Course published')).toBeVisible();
  const pricing = page.getByRole('region', { name: 'Pricing' });
  await pricing.getByLabel('Price (£)').fill('29');
  await pricing.getByLabel('Team price per seat (£)').fill('20');
  await pricing.getByRole('button', { name: 'Save pricing' }).click();
  await expect(toast(page, 'Course saved')).toBeVisible();

  // The public profile, with a picture.
  await page.goto('/dashboard/creator/profile');
  const section = page.getByRole('region', { name: 'Public profile' });
  await expect(section.getByLabel(/^Display name/)).toBeVisible();
  await checkAndShoot(page, testInfo, 'storefront-profile-empty', { section });
  const slug = `jane-${Date.now().toString(36)}`;
  await section.getByLabel(/^Display name/).fill('Jane Cooks');
  await section.getByLabel(/^Page address/).fill(slug);
  await section.getByLabel('Bio').fill('Chef and cookery teacher in London. Twenty years in restaurant kitchens, now teaching home cooks the skills that make cooking a pleasure.');
  await section.getByTestId('avatar-input').setInputFiles({ name: 'jane.png', mimeType: 'image/png', buffer: await drawnPicture(page) });
  await expect(section.getByText(/Save to use the new picture/)).toBeVisible();
  await section.getByRole('button', { name: 'Save public profile' }).click();
  await expect(toast(page, 'Public profile saved')).toBeVisible();
  await expect(section.getByRole('link', { name: /View public page/ })).toHaveAttribute('href', `/u/${slug}`);
  await expect(section.getByTestId('creator-avatar-image')).toHaveAttribute('src', /avatars\//);
  await checkAndShoot(page, testInfo, 'storefront-profile-saved', { section });

  // A visitor: a browser of their own, never signed in.
  const visitorContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/u/${slug}`);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Jane Cooks' })).toBeVisible();
  await expect(visitor.getByText(/Twenty years in restaurant kitchens/)).toBeVisible();
  await expect(visitor.getByTestId('creator-avatar-image')).toBeVisible();
  expect(await visitor.getByTestId('creator-avatar-image').evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBe(256);
  await expect(visitor).toHaveTitle('Jane Cooks · Course Platform');
  await expect(visitor.getByRole('link', { name: 'Sign in' })).toBeVisible();
  const card = visitor.getByRole('link', { name: /Knife Skills for Home Cooks/ });
  await expect(card).toContainText('£29');
  await expect(card).toContainText('2 lessons');
  await checkAndShoot(visitor, testInfo, 'storefront-creator-page');

  // The page shows, then records its one view (the page's GET is cached at the edge and counts nothing).
  const viewed = visitor.waitForResponse((res) => res.request().method() === 'POST' && res.url().endsWith(`/api/public/courses/${courseId}/views`));
  await card.click();
  await expect(visitor).toHaveURL(new RegExp(`/c/${courseId}$`));
  await expect(visitor.getByRole('heading', { level: 1, name: 'Knife Skills for Home Cooks' })).toBeVisible();
  expect((await viewed).status()).toBe(204);
  const lessons = visitor.getByTestId('lesson-list').getByRole('listitem');
  await expect(lessons).toHaveText([/Choosing your knife\s*Reading/, /The claw grip\s*Video/]);
  await expect(visitor.getByTestId('course-price')).toHaveText('£29');
  await expect(visitor.getByRole('link', { name: 'Jane Cooks' })).toHaveAttribute('href', `/u/${slug}`);
  await expect(visitor.getByRole('button', { name: 'Buy now' })).toBeVisible();
  await expect(visitor).toHaveTitle('Knife Skills for Home Cooks · Course Platform');
  expect(await visitor.locator('meta[name="description"]').getAttribute('content')).toMatch(/^Hold, sharpen and use/);
  await checkAndShoot(visitor, testInfo, 'storefront-course-page', { buy: visitor.getByTestId('buy-box') });

  // A team: the seat count prices the purchase (licences themselves come with the licensing issue).
  await visitor.locator('label', { hasText: 'Buy for a team' }).click();
  await expect(visitor.getByRole('radio', { name: 'Buy for a team' })).toBeChecked();
  await visitor.getByLabel(/^Seats/).fill('12');
  await expect(visitor.getByTestId('course-price')).toHaveText('£240');
  await expect(visitor.getByRole('button', { name: 'Buy for a team' })).toBeVisible();
  await checkAndShoot(visitor, testInfo, 'storefront-course-team', { buy: visitor.getByTestId('buy-box') });
  await visitor.locator('label', { hasText: 'For me' }).click();
  await expect(visitor.getByTestId('course-price')).toHaveText('£29');

  // Keyboard only: the email, then 'Buy now'. The creator has not connected Stripe: the server says so, inline.
  await visitor.getByLabel(/^Email/).focus();
  await visitor.keyboard.type('visitor@example.com');
  await visitor.keyboard.press('Tab');
  await visitor.keyboard.press('Tab');
  await expect(visitor.getByRole('button', { name: 'Buy now' })).toBeFocused();
  await visitor.keyboard.press('Enter');
  await expect(visitor.getByRole('alert')).toContainText('not on sale yet');
  await checkAndShoot(visitor, testInfo, 'storefront-course-not-ready', { buy: visitor.getByTestId('buy-box') });

  // Back from Stripe after paying, and a course that is not there.
  await visitor.goto(`/c/${courseId}?purchase=success`);
  await expect(visitor.getByTestId('purchase-confirmation')).toContainText("Payment received. Check your email: we've sent you how to sign in and start learning.");
  await checkAndShoot(visitor, testInfo, 'storefront-course-purchased');
  await visitor.goto('/c/01JD0000000000000000000000');
  await expect(visitor.getByRole('heading', { level: 1, name: "This course isn't available" })).toBeVisible();
  await checkAndShoot(visitor, testInfo, 'storefront-course-not-found');
  await visitorContext.close();
});

test("a learner finds another course of their creator under Browse and opens its public page", async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'storefront-browse');
  const learner = await createTestAccount(cloud, 'learner', 'storefront-browse-learner');
  const owned = await seedCourse(cloud, creator.email, { title: 'Bread Basics', description: 'Your first loaf.', priceAmount: 1500, lessons: ['Flour', 'Kneading'] });
  await seedCourse(cloud, creator.email, {
    title: 'Sourdough Masterclass',
    description: 'Feed a starter, shape a boule and bake an open crumb at home, step by step.',
    priceAmount: 4900,
    lessons: ['The starter', 'Mixing', 'Shaping', 'Baking'],
  });
  const { enrollDeps, getDeps } = await import('#functions/composition/deps.ts');
  const { enrollLearner } = await import('#core/enrollments/creator-enrollments.ts');
  const creatorId = (await getDeps().users.getUserIdByEmail(creator.email))!;
  await enrollLearner(enrollDeps(), { creatorId, courseId: owned, email: learner.email });

  await signIn(page, learner.email, learner.password, /\/dashboard\/learner$/);
  await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'browse', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/learner\/browse$/);
  const link = page.getByRole('link', { name: 'View course: Sourdough Masterclass' });
  await expect(link).toBeVisible();
  await expect(page.getByRole('link', { name: 'View course: Bread Basics' })).toHaveCount(0);
  await expect(page.getByText('4 lessons · £49')).toBeVisible();
  await checkAndShoot(page, testInfo, 'storefront-browse');

  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sourdough Masterclass' })).toBeVisible();
  await expect(page.getByText('Course creator', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'My dashboard' })).toBeVisible();
});

import type { Page, TestInfo } from '@playwright/test';
import { accessToken, api, signIn } from './support/api.ts';
import { createTestAccount, expect, seriousA11yViolations, test } from './support/cloud.ts';

// Issue 28 point 5: the lists that now come a page at a time, in the browser. The server's pages are made small
// (each list request gets `limit=1`, a query the API takes) so the seeded data spans pages: the screen shows the first
// page with 'Load more', the next joins below, and the button goes once the list ends. Screenshots at 1280 and 375 px.

/**
 * Signs in on the sign-in page and lands on `dashboard`. The sign-in is timed apart from the landing: it is over when
 * the app has the profile (GET /api/me: Amplify's chunk loaded, Cognito answered, the profile's chunk loaded and
 * asked), however long a loaded machine takes for that (the test's own timeout bounds it); then the dashboard's URL,
 * which the router commits only once the dashboard's guard ran and its screens' modules loaded, gets the usual 10 s.
 * Timed as one 10 s step, the whole chain in a fresh browser (every module of the dev server fetched anew) took ~1 s
 * here, ~7 s with the browser's CPU slowed 10x (the URL staying /auth/login, the button 'Signing in...', all along):
 * on CI's shared cores it once passed 10 s, seen as a sign-in that stayed on /auth/login.
 */
async function signInTo(page: Page, email: string, password: string, dashboard: RegExp): Promise<void> {
  // An anonymous page asks for no profile: the first GET /api/me is the signed-in one.
  const profile = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/me' && res.request().method() === 'GET', { timeout: 0 });
  await signIn(page, email, password);
  expect((await profile).status(), `GET /api/me after signing in as ${email}`).toBe(200);
  await expect(page).toHaveURL(dashboard);
}

/** Every GET of `path` (no query yet) asked with `limit=1`, so a few rows make pages. */
async function smallPages(page: Page, path: RegExp): Promise<void> {
  await page.route(path, (route) => {
    const url = new URL(route.request().url());
    if (route.request().method() !== 'GET' || url.searchParams.has('limit')) return route.continue();
    url.searchParams.set('limit', '1');
    return route.continue({ url: url.toString() });
  });
}

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    expect(await page.evaluate('document.documentElement.scrollWidth'), `${name} at ${width}px`).toBeLessThanOrEqual(width);
    const path = testInfo.outputPath(`${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
    await testInfo.attach(`${name}-${width}`, { path, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * Clicks 'Load more' until it is gone; `rows` counts what the screen shows, which only grows. While a page loads the
 * button says 'Loading…' (components/ui/load-more.tsx): it is the same button, so the list has ended only when neither
 * is there.
 */
async function loadAll(page: Page, rows: () => Promise<number>): Promise<number> {
  const button = page.getByRole('button', { name: /^(Load more|Loading…)$/ });
  let seen = await rows();
  for (let i = 0; i < 10; i++) {
    // A page still on its way ('Loading…') lands first: the button then says 'Load more' again, or is gone after the
    // last page (clicking 'Load more' at once would wait for a button that never comes back).
    await expect(page.getByRole('button', { name: 'Loading…' })).toHaveCount(0);
    if ((await button.count()) === 0) break;
    await page.getByRole('button', { name: 'Load more' }).click();
    const before = seen;
    await expect.poll(async () => (await rows()) > before || (await button.count()) === 0).toBe(true);
    const now = await rows();
    expect(now).toBeGreaterThanOrEqual(seen);
    seen = now;
  }
  await expect(button).toHaveCount(0);
  return seen;
}

test("a learner's courses a page at a time with 'Load more', and their certificates' empty state", async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creatorToken = await accessToken(cloud, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword);
  const courses = (await api<{ items: { id: string; status: string }[] }>(cloud, creatorToken, 'GET', '/api/courses')).items.filter((c) => c.status === 'published');
  expect(courses.length).toBeGreaterThanOrEqual(2);

  const learner = await createTestAccount(cloud, 'learner', 'pages-learner');
  for (const course of courses.slice(0, 3)) await api(cloud, creatorToken, 'POST', `/api/courses/${course.id}/enrollments`, { email: learner.email });

  await smallPages(page, /\/api\/learner\/(courses|certificates)(\?|$)/);
  await signInTo(page, learner.email, learner.password, /\/dashboard\/learner$/);
  await page.goto('/dashboard/learner/courses');
  await expect(page.getByRole('button', { name: 'Load more' })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await shoot(page, testInfo, 'learner-courses-first-page');
  const cards = () => page.getByRole('main').getByRole('listitem').count();
  expect(await loadAll(page, cards)).toBe(Math.min(3, courses.length));
  await shoot(page, testInfo, 'learner-courses-all');
  await page.goto('/dashboard/learner/certificates');
  await expect(page.getByRole('heading', { name: 'No certificates yet' })).toBeVisible();

});

test("a leader's licences a page at a time with 'Load more'", async ({ page: leaderPage, cloud }, testInfo) => {
  test.setTimeout(120_000);
  const creatorToken = await accessToken(cloud, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword);
  const courses = (await api<{ items: { id: string; status: string }[] }>(cloud, creatorToken, 'GET', '/api/courses')).items.filter((c) => c.status === 'published');
  const leader = await createTestAccount(cloud, 'leader', 'pages-leader');
  for (const course of courses.slice(0, 3)) await api(cloud, creatorToken, 'POST', `/api/courses/${course.id}/licenses`, { leaderEmail: leader.email, seats: 5 });
  await smallPages(leaderPage, /\/api\/leader\/licenses(\?|$)/);
  await signInTo(leaderPage, leader.email, leader.password, /\/dashboard\/leader$/);
  await leaderPage.goto('/dashboard/leader/licenses');
  await expect(leaderPage.getByRole('button', { name: 'Load more' })).toBeVisible();
  expect(await seriousA11yViolations(leaderPage)).toEqual([]);
  await shoot(leaderPage, testInfo, 'leader-licenses-first-page');
  const licences = () => leaderPage.getByRole('main').getByRole('link', { name: /manage seats/i }).count();
  expect(await loadAll(leaderPage, licences)).toBeGreaterThanOrEqual(Math.min(3, courses.length));
  await shoot(leaderPage, testInfo, 'leader-licenses-all');
});

test("the creator's coupons and affiliates a page at a time with 'Load more'", async ({ page, cloud }, testInfo) => {
  test.setTimeout(120_000);
  await smallPages(page, /\/api\/(coupons|affiliates)(\?|$)/);
  await signInTo(page, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword, /\/dashboard\/creator$/);
  for (const [path, name] of [
    ['/dashboard/creator/coupons', 'creator-coupons'],
    ['/dashboard/creator/affiliates', 'creator-affiliates'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load more' })).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shoot(page, testInfo, `${name}-first-page`);
    await loadAll(page, () => page.getByRole('main').getByRole('row').count());
    await shoot(page, testInfo, `${name}-all`);
  }
});

test("the creator's courses a page at a time with 'Load more'", async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creatorToken = await accessToken(cloud, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword);
  const courses = (await api<{ items: { id: string; status: string }[] }>(cloud, creatorToken, 'GET', '/api/courses')).items;
  expect(courses.length).toBeGreaterThanOrEqual(2);

  await smallPages(page, /\/api\/courses(\?|$)/);
  await signInTo(page, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword, /\/dashboard\/creator$/);
  await page.goto('/dashboard/creator/courses');
  await expect(page.getByRole('button', { name: 'Load more' })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await shoot(page, testInfo, 'creator-courses-first-page');
  // The next page held back a moment: the button says 'Loading…', busy and disabled, keeping the keyboard's focus.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/courses\?.*cursor=/, async (route) => {
    await held;
    await route.fallback();
  });
  await page.getByRole('button', { name: 'Load more' }).focus();
  await page.keyboard.press('Enter');
  const loading = page.getByRole('button', { name: 'Loading…' });
  await expect(loading).toHaveAttribute('aria-disabled', 'true');
  await expect(loading).toBeFocused();
  await shoot(page, testInfo, 'creator-courses-loading-more');
  release();
  expect(await loadAll(page, () => page.getByTestId('course-card').count())).toBe(courses.length);
  await shoot(page, testInfo, 'creator-courses-all');
});

test("a leader's group members a page at a time with 'Load more'", async ({ page: leaderPage, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creatorToken = await accessToken(cloud, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword);
  const courses = (await api<{ items: { id: string; status: string }[] }>(cloud, creatorToken, 'GET', '/api/courses')).items;
  const published = courses.filter((c) => c.status === 'published');
  const leader = await createTestAccount(cloud, 'leader', 'pages-group');
  const license = await api<{ id: string }>(cloud, creatorToken, 'POST', `/api/courses/${published[0]!.id}/licenses`, { leaderEmail: leader.email, seats: 5 });
  const leaderToken = await accessToken(cloud, leader.email, leader.password);
  for (const name of ['ann', 'bo', 'cleo']) await api(cloud, leaderToken, 'POST', `/api/leader/licenses/${license.id}/seats`, { email: `${name}-${Date.now()}@example.com` });
  await smallPages(leaderPage, /\/api\/leader\/licenses\/[^/]+\/seats(\?|$)/);
  await signInTo(leaderPage, leader.email, leader.password, /\/dashboard\/leader$/);
  await leaderPage.goto(`/dashboard/leader/groups?license=${license.id}`);
  // The members' table (its own scrolling region, named 'Members') and 'Load more' below it.
  const members = leaderPage.getByRole('region', { name: 'Members' });
  await expect(leaderPage.getByRole('button', { name: 'Load more' })).toBeVisible();
  expect(await seriousA11yViolations(leaderPage)).toEqual([]);
  await shoot(leaderPage, testInfo, 'leader-group-members-first-page');
  expect(await loadAll(leaderPage, () => members.getByRole('row').count())).toBe(4);
  await shoot(leaderPage, testInfo, 'leader-group-members-all');
});

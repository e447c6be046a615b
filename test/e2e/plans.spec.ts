import type { Page } from '@playwright/test';
import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, endTestSubscription, expect, test } from './support/cloud.ts';

// Issue 29 in a real browser against the local cloud: what each plan says is what each screen does. A creator who
// never subscribed sees the plan picker and the way to a plan instead of controls that fail; a creator whose plan
// ended sees their courses read-only; a Starter creator makes courses, meets Pro's lock on affiliates (the upgrade
// path opens the billing portal) and is refused an 11-seat licence in the form with the reason; a Pro creator has
// affiliates and licence end dates open. Screenshots at 1280 px and 375 px land in the test's output folder.

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Course Platform navigation' });

/**
 * The controls on the page (in main) a person can press or type in, by name: a page without a plan must offer no
 * write among them, only reading (filters, links out) and the way to a plan.
 */
async function enabledControls(page: Page): Promise<string[]> {
  return page
    .getByRole('main')
    .locator('button:enabled, input:enabled, textarea:enabled, select:enabled')
    .evaluateAll((controls) => controls.map((control) => control.getAttribute('aria-label') ?? (control.textContent ?? '').trim() ?? control.tagName));
}

async function signInAsCreator(page: Page, account: { email: string; password: string }): Promise<void> {
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
}

test('a creator who never subscribed sees the plan picker and the way to a plan, not buttons that fail', async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'plans-none', { plan: 'none' });
  await signInAsCreator(page, creator);

  // The plan picker up front, and the Pro pages marked in the sidebar.
  const picker = page.getByRole('region', { name: 'Choose your plan' });
  await expect(picker.getByTestId('plan-starter').getByRole('button', { name: 'Get Started' })).toBeEnabled();
  await expect(picker.getByTestId('plan-pro').getByRole('button', { name: 'Get Started' })).toBeEnabled();
  await expect(sidebar(page).getByRole('link', { name: 'Affiliates Pro' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Reports Pro' })).toBeVisible();
  // The quick actions that lead to writes give way to the plan picker above them.
  const quickActions = page.getByRole('region', { name: 'Quick Actions' });
  await expect(quickActions.getByRole('note')).toContainText('need a plan');
  await expect(quickActions.getByRole('link', { name: 'View Learners' })).toBeVisible();
  for (const name of ['Create Course', 'Generate Landing Page', 'Connect Integrations']) await expect(quickActions.getByRole('link', { name })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Choose a plan to create your first course' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'plans-none-dashboard');

  await sidebar(page).getByRole('link', { name: 'My Courses' }).click();
  await expect(page.getByRole('heading', { name: 'No courses yet' })).toBeVisible();
  const choose = page.getByRole('link', { name: 'Choose a plan to create courses' });
  await expect(choose).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Create Course', exact: true })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'plans-none-courses');

  await sidebar(page).getByRole('link', { name: 'Create Course' }).click();
  await expect(page.getByText('Choose a plan to create courses')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create course' })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'plans-none-create');

  // The Landing Page, the CRM, the integrations and the profile: the data read-only, the way to a plan, no write.
  await sidebar(page).getByRole('link', { name: 'Landing Page' }).click();
  await expect(page.getByText('Choose a plan to generate landing pages')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Company/Brand Name' })).toBeDisabled();
  expect(await enabledControls(page)).toEqual([]);
  await checkAndShoot(page, testInfo, 'plans-none-landing');

  await sidebar(page).getByRole('link', { name: 'crm', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'No learners yet' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('note')).toContainText('saving notes and sending messages to learners need a plan');
  expect((await enabledControls(page)).filter((name) => name !== 'Choose a plan')).toEqual([expect.stringContaining('All courses'), expect.stringContaining('Newest enrolment')]);
  await checkAndShoot(page, testInfo, 'plans-none-crm');

  await sidebar(page).getByRole('link', { name: 'integrations', exact: true }).click();
  await expect(page.getByText('Choose a plan to connect integrations')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Enable Zoom' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save Integrations' })).toBeDisabled();
  expect(await enabledControls(page)).toEqual([]);
  await checkAndShoot(page, testInfo, 'plans-none-integrations');

  await sidebar(page).getByRole('link', { name: 'profile', exact: true }).click();
  const publicProfile = page.getByRole('region', { name: 'Public profile' });
  await expect(publicProfile.getByRole('note')).toContainText('Setting up your public profile needs a plan.');
  await expect(publicProfile.getByLabel(/^Display name/)).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Choose a plan to connect Stripe' })).toBeVisible();
  // Taking one's data and leaving need no plan (issue 37): rights, not features; nor does stopping an email.
  expect(await enabledControls(page)).toEqual(['Choose a plan', 'Email me a daily digest of new comments', 'Download my data', 'Delete my account']);
  await checkAndShoot(page, testInfo, 'plans-none-profile');

  // The way to a plan leads back to the picker.
  await page.getByRole('link', { name: 'Choose a plan to connect Stripe' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await expect(page.getByRole('region', { name: 'Choose your plan' })).toBeVisible();
});

test("a creator whose plan ended keeps their courses, read-only, with the way to a plan", async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'plans-ended');
  const token = await accessToken(cloud, creator.email, creator.password);
  const title = `Bread at home ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Sourdough without fuss.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Starter', kind: 'text', body: '<p>Flour and water.</p>' });
  await endTestSubscription(creator.email);

  await signInAsCreator(page, creator);
  await expect(page.getByRole('region', { name: 'Your subscription has been canceled' })).toBeVisible();
  // The credits bought stay; a top-up waits for a plan.
  const credits = page.getByRole('region', { name: 'AI Credits' });
  await expect(credits.getByTestId('credits-no-allocation')).toBeVisible();
  await expect(credits.getByRole('link', { name: 'Choose a plan to top up credits' })).toBeVisible();
  await expect(credits.getByRole('button', { name: 'Top up 100 credits' })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'plans-ended-dashboard');
  await sidebar(page).getByRole('link', { name: 'My Courses' }).click();
  const card = page.getByTestId('course-card').filter({ hasText: title });
  await expect(card.getByRole('link', { name: `View ${title}` })).toBeVisible();
  await expect(card.getByRole('button', { name: `Delete ${title}` })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Choose a plan to create courses' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'plans-ended-courses');

  await card.getByRole('link', { name: `View ${title}` }).click();
  await expect(page.getByText('Choose a plan to edit this course')).toBeVisible();
  await expect(page.getByLabel('Course title')).toHaveValue(title);
  await expect(page.getByLabel('Course title')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save details' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete course' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Choose a plan to grant team licences' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'plans-ended-editor');
});

test('a Starter creator makes a course, is refused an 11-seat licence in the form, and meets the lock on affiliates with the way to Pro', async ({ page, cloud }, testInfo) => {
  test.setTimeout(240_000);
  const creator = await createTestAccount(cloud, 'creator', 'plans-starter', { plan: 'starter' });
  await signInAsCreator(page, creator);
  await expect(page.getByTestId('subscription-plan')).toHaveText(/Starter/);

  // Courses work.
  await sidebar(page).getByRole('link', { name: 'Create Course' }).click();
  await page.getByLabel('Course title').fill('Knife skills');
  await page.getByRole('button', { name: 'Create course' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/courses\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Knife skills' })).toBeVisible();

  // A licence of 11 seats is refused in the form, with the reason and the way to Pro; nothing is sent.
  const licences = page.getByRole('region', { name: 'Team licences' });
  await licences.getByRole('button', { name: 'Grant a licence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Grant a licence' });
  await expect(dialog.getByTestId('locked-end-date')).toContainText('End dates are part of the Pro plan.');
  await dialog.getByLabel(/^Leader email/).fill(`plans-leader-${Date.now()}@example.com`);
  await dialog.getByLabel(/^Seats/).fill('11');
  let granted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/courses\/[^/]+\/licenses$/.test(new URL(request.url()).pathname)) granted++;
  });
  await dialog.getByRole('button', { name: 'Grant licence' }).click();
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toContainText('Licences on your plan have up to 10 seats each. Team licences of any size are part of the Pro plan.');
  await expect(refusal.getByRole('button', { name: 'Upgrade to Pro' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'plans-starter-licence-refused');
  expect(granted).toBe(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Affiliates: the sidebar's lock, the page says why, and the upgrade path opens the billing portal.
  await sidebar(page).getByRole('link', { name: 'Affiliates Pro' }).click();
  await expect(page.getByRole('heading', { name: 'Affiliates are part of the Pro plan' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add affiliate' })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'plans-starter-affiliates');
  await page.getByTestId('pro-plan-card').getByRole('button', { name: 'Upgrade to Pro' }).click();
  const upgrade = page.getByRole('dialog', { name: 'Upgrade to Pro' });
  await expect(upgrade).toContainText('Affiliates are part of the Pro plan.');
  await checkAndShoot(page, testInfo, 'plans-starter-upgrade');
  await upgrade.getByRole('button', { name: 'Change plan in billing' }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(cloud.StripeApiUrl) && url.pathname.startsWith('/billing_portal/'));
});

test('a Pro creator has affiliates and licence end dates open, with no lock', async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'plans-pro');
  const token = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: `Team cooking ${Date.now()}`, description: 'For kitchens.' });
  await signInAsCreator(page, creator);
  await expect(sidebar(page).getByTestId('pro-lock')).toHaveCount(0);

  await sidebar(page).getByRole('link', { name: 'Affiliates', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'No affiliates yet' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add affiliate' }).first()).toBeEnabled();
  await expect(page.getByTestId('pro-plan-card')).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'plans-pro-affiliates');

  await page.goto(`/dashboard/creator/courses/${course.id}`);
  await page.getByRole('region', { name: 'Team licences' }).getByRole('button', { name: 'Grant a licence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Grant a licence' });
  await expect(dialog.getByLabel('Last day')).toBeEditable();
  await expect(dialog.getByLabel(/^Seats/)).toHaveAccessibleDescription(/1 to 10,000\./);
});

test("a leader on a Starter creator's licence is told why there is no CSV import, and adds members one at a time", async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'plans-leader-creator', { plan: 'starter' });
  const token = await accessToken(cloud, creator.email, creator.password);
  const title = `Plating ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Make it look good.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Colour', kind: 'text', body: '<p>Contrast.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  const leader = await createTestAccount(cloud, 'leader', 'plans-leader');
  const learner = await createTestAccount(cloud, 'learner', 'plans-member');
  await api(cloud, token, 'POST', `/api/courses/${course.id}/licenses`, { leaderEmail: leader.email, seats: 5 });
  // No stand-in: the leader's list says `bulkMembers: false` itself (docs/api.md), from the creator's Starter plan.

  await signIn(page, leader.email, leader.password);
  await expect(page).toHaveURL(/\/dashboard\/leader$/);
  await page.goto('/dashboard/leader/groups');
  const form = page.getByRole('form', { name: 'Add members' });
  await expect(form.getByRole('note')).toContainText("Importing members from a CSV file, or adding several at once, needs the course creator's Pro plan.");
  await expect(form.getByText('Choose a CSV file')).toHaveCount(0);
  await form.getByLabel(/^Emails/).fill(`${learner.email}, someone-${Date.now()}@example.com`);
  await form.getByRole('button', { name: 'Add members' }).click();
  await expect(form.getByLabel(/^Emails/)).toHaveAccessibleDescription(/Add one email at a time/);
  await checkAndShoot(page, testInfo, 'plans-leader-one-at-a-time');

  await form.getByLabel(/^Emails/).fill(learner.email);
  await form.getByRole('button', { name: 'Add members' }).click();
  await expect(page.getByRole('list', { name: 'Results' })).toContainText(`${learner.email}Added`, { timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Members' })).toContainText(learner.email);
});

import { signIn } from './support/api.ts';
import { checkAndShoot, expect, test } from './support/cloud.ts';

// The seeded demo on first sign-in (lib/local/seed.ts, demo-business.ts): each role's screens show real figures, not
// empty states, at 1280 px and at 375 px.

test.describe('the seeded demo, first sign-in', () => {
  test('the group leader sees the team licence and its three members under way', async ({ page, cloud }, testInfo) => {
    await signIn(page, cloud.DemoLeaderEmail, cloud.DemoLeaderPassword);
    await expect(page).toHaveURL(/\/dashboard\/leader$/);
    const figures = page.getByRole('region', { name: 'Key figures' });
    await expect(figures).toContainText('Team Members3');
    await expect(figures).toContainText('Licenses3 / 5');
    await expect(page.getByRole('progressbar', { name: 'liam.oconnor@example.com: 67% complete' })).toBeVisible();
    await checkAndShoot(page, testInfo, 'demo-leader-dashboard');
  });

  test("the creator's sales: four, one refunded, one with the coupon and one through the affiliate", async ({ page, cloud }, testInfo) => {
    await signIn(page, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword);
    await expect(page).toHaveURL(/\/dashboard\/creator$/);
    await page.goto('/dashboard/creator/analytics');
    await page.getByRole('tab', { name: 'Sales' }).click();
    for (const buyer of ['sofia.rossi@example.com', 'jonas.berg@example.com', 'priya.sharma@example.com', 'emma.dubois@example.com']) {
      await expect(page.getByText(buyer).first()).toBeVisible();
    }
    await expect(page.getByText('WELCOME20').first()).toBeVisible();
    await expect(page.getByText(/refunded/i).first()).toBeVisible();
    await checkAndShoot(page, testInfo, 'demo-creator-sales');
  });

  test("the learner's 'My Learning' shows the upcoming live session and recommends the courses on sale from their creator", async ({ page, cloud }, testInfo) => {
    await signIn(page, cloud.DemoLearnerEmail, cloud.DemoLearnerPassword);
    await expect(page).toHaveURL(/\/dashboard\/learner$/);
    // The seed's session (lib/local/seed.ts demoSession), days ahead: Join not open yet.
    const session = page.getByRole('region', { name: 'Upcoming live sessions' }).getByTestId('live-session');
    await expect(session).toContainText('Live Q&A: your first loaf');
    await expect(session).toContainText('Sourdough Baking Basics');
    await expect(session.getByRole('button', { name: /^Join Live Q&A: your first loaf: Opens / })).toBeDisabled();
    const recommended = page.getByRole('list', { name: 'Recommended courses' });
    await expect(recommended.getByRole('link', { name: 'View course: Knife Skills for Home Cooks' })).toBeVisible();
    await expect(recommended.getByRole('link', { name: 'View course: Sourdough Beyond the Basics' })).toBeVisible();
    await checkAndShoot(page, testInfo, 'demo-learner-dashboard');
  });

  test("the admin's dashboard: courses with their enrolments, revenue, certificates", async ({ page, cloud }, testInfo) => {
    await signIn(page, cloud.AdminEmail, cloud.AdminPassword);
    await expect(page).toHaveURL(/\/dashboard\/admin$/);
    const figures = page.getByRole('region', { name: 'Key figures' });
    await expect(figures).toContainText(/Published of \d+ courses · \d+ enrolled, \d+ completed/);
    await expect(figures).not.toContainText('Certificates Issued0');
    await checkAndShoot(page, testInfo, 'demo-admin-dashboard');

    // 'Billing Settings' opens the settings at their billing section (plans and AI credits).
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Billing Settings' }).click();
    await expect(page).toHaveURL(/\/dashboard\/admin\/settings#billing$/);
    await expect(page.getByRole('region', { name: 'Billing' })).toBeFocused();
    await expect(page.getByRole('region', { name: 'Billing' })).toContainText('Pro plan');
    await checkAndShoot(page, testInfo, 'demo-admin-billing-settings');
  });
});

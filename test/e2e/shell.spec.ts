import type { Page, TestInfo } from '@playwright/test';
import type { Role } from '#contracts/common.ts';
import type { Outputs } from '#lib/local/outputs.ts';
import { createTestAccount, expect, seriousA11yViolations, test } from './support/cloud.ts';

/**
 * A leader or learner account, made the way an admin or a creator makes one (the real create-account use case
 * with the Cognito and DynamoDB adapters, pointed at this run's local cloud). Created once per worker and role.
 */
const accounts = new Map<Role, Promise<{ email: string; password: string }>>();

function makeAccount(cloud: Outputs, role: Role): Promise<{ email: string; password: string }> {
  return createTestAccount(cloud, role, `shell-${role}`);
}

function credentials(cloud: Outputs, role: Role): Promise<{ email: string; password: string }> {
  if (role === 'admin') return Promise.resolve({ email: cloud.AdminEmail, password: cloud.AdminPassword });
  if (role === 'creator') return Promise.resolve({ email: cloud.DemoCreatorEmail, password: cloud.DemoCreatorPassword });
  if (!accounts.has(role)) accounts.set(role, makeAccount(cloud, role));
  return accounts.get(role)!;
}

/** Fills the sign-in form of the current page (already on /auth/login). */
async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signInAs(page: Page, cloud: Outputs, role: Role): Promise<string> {
  const { email, password } = await credentials(cloud, role);
  await page.goto('/auth/login');
  await submitSignIn(page, email, password);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${role}$`));
  await expect(page.getByText('Welcome back!')).toBeVisible();
  return email;
}

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const body = await page.screenshot({ fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

const dashboards: { role: Role; heading: string; roleLabel: string; other: Role; menu: string[] }[] = [
  {
    role: 'admin',
    heading: 'Admin Dashboard',
    roleLabel: 'Admin',
    other: 'creator',
    menu: ['Dashboard', 'analytics', 'users', 'Email Campaigns', 'courses', 'settings'],
  },
  {
    role: 'creator',
    heading: 'Creator Dashboard',
    roleLabel: 'Creator',
    other: 'admin',
    menu: ['Dashboard', 'My Courses', 'Create Course', 'Landing Page', 'crm', 'integrations', 'analytics', 'profile'],
  },
  {
    role: 'leader',
    heading: 'Group Leader Dashboard',
    roleLabel: 'Group Leader',
    other: 'learner',
    menu: ['Dashboard', 'My Groups', 'licenses', 'reports', 'settings'],
  },
  {
    role: 'learner',
    heading: 'My Learning',
    roleLabel: 'Learner',
    other: 'leader',
    menu: ['Dashboard', 'courses', 'browse', 'certificates', 'profile'],
  },
];

test.describe('the dashboard shell', () => {
  for (const { role, heading, roleLabel, other, menu } of dashboards) {
    test(`a ${role} lands on their own dashboard, every menu entry opens a screen, and another role's area bounces them back`, async ({
      page,
      cloud,
    }, testInfo) => {
      const email = await signInAs(page, cloud, role);

      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByTestId('user-email')).toHaveText(email);
      await expect(page.getByTestId('sidebar-title')).toHaveText('Course Platform');
      await expect(page.getByTestId('sidebar-role')).toHaveText(roleLabel);
      const nav = page.getByRole('navigation', { name: 'Navigation' });
      await expect(nav.getByRole('link')).toHaveText(menu);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await attachScreenshot(page, testInfo, `${role}-dashboard-desktop.png`);

      // Every entry leads to a real screen: its own h1, never the 404 page or a blank page.
      for (const title of menu) {
        await nav.getByRole('link', { name: title, exact: true }).click();
        await expect(nav.getByRole('link', { name: title, exact: true })).toHaveAttribute('aria-current', 'page');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByText('Oops! Page not found')).toHaveCount(0);
      }

      await page.goto(`/dashboard/${other}`);
      await expect(page).toHaveURL(new RegExp(`/dashboard/${role}$`));
      await page.goto('/dashboard');
      await expect(page).toHaveURL(new RegExp(`/dashboard/${role}$`));
      await page.goto('/');
      await expect(page).toHaveURL(new RegExp(`/dashboard/${role}$`));
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    });
  }

  test('the admin screens show their cards, tabs and the compose form', async ({ page, cloud }, testInfo) => {
    await signInAs(page, cloud, 'admin');

    await page.goto('/dashboard/admin/analytics');
    for (const card of ['Total Users', 'Platform Revenue', 'Affiliate Network', 'Commissions']) {
      await expect(page.getByRole('heading', { name: card, exact: true })).toBeVisible();
    }
    await expect(page.getByText('Revenue Breakdown')).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await attachScreenshot(page, testInfo, 'admin-analytics-desktop.png');

    await page.goto('/dashboard/admin/emails');
    await expect(page.getByRole('tab')).toHaveText(['Compose Email', 'Templates', 'Automations', 'Analytics']);
    await page.getByRole('combobox', { name: 'Recipients' }).click();
    await expect(page.getByRole('option')).toHaveText([
      'All users',
      'Creators',
      'Learners',
      'Group leaders',
      'Creators on trial',
      'Subscribed creators',
    ]);
    await page.getByRole('option', { name: 'Creators on trial' }).click();
    await page.getByLabel('Subject').fill('Your trial ends soon');
    await page.getByLabel('Content').fill('Pick a plan to keep your courses online.');
    // Sending itself (a real campaign through SES local) is campaigns.spec.ts's.
    await expect(page.getByRole('button', { name: 'Send Email Campaign' })).toBeEnabled();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await attachScreenshot(page, testInfo, 'admin-emails-desktop.png');
  });

  test('a deep link opened while signed out leads to sign-in, then back to the deep link', async ({ page, cloud }) => {
    await page.goto('/dashboard/creator/crm');
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard%2Fcreator%2Fcrm$/);

    await submitSignIn(page, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword);

    await expect(page).toHaveURL(/\/dashboard\/creator\/crm$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Learner CRM' })).toBeVisible();
  });

  test('Ctrl+B and Cmd+B toggle the sidebar, and the state survives a reload in the sidebar_state cookie', async ({
    page,
    cloud,
    context,
  }, testInfo) => {
    await signInAs(page, cloud, 'creator');
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    expect((await page.getByRole('complementary').boundingBox())?.width).toBe(256); // 16rem

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect.poll(async () => (await page.getByRole('complementary').boundingBox())?.width).toBe(48); // 3rem

    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    const days = (cookie!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // Icons only: the title appears as a tooltip.
    await page.getByRole('link', { name: 'crm' }).hover();
    await expect(page.getByRole('tooltip', { name: 'crm' })).toBeVisible();
    await attachScreenshot(page, testInfo, 'sidebar-collapsed.png');

    await page.reload();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
    // The built app paints the signed-in shell (collapsed, from the cookie) before its scripts run: a key pressed
    // then has no listener yet. Once the page is quiet the app is running.
    await page.waitForLoadState('networkidle');

    await page.keyboard.press('Meta+b');
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
    expect((await context.cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe('true');
  });

  test('at 375 px the sidebar is an off-canvas drawer that closes after choosing an entry', async ({ page, cloud }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInAs(page, cloud, 'creator');
    await expect(page.getByRole('navigation', { name: 'Navigation' })).toHaveCount(0);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await attachScreenshot(page, testInfo, 'creator-dashboard-375.png');

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Course Platform navigation' });
    await expect(drawer).toBeVisible();
    expect((await drawer.boundingBox())?.width).toBe(288); // 18rem
    expect(await seriousA11yViolations(page)).toEqual([]);
    await attachScreenshot(page, testInfo, 'drawer-open-375.png');

    await drawer.getByRole('link', { name: 'integrations' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator\/integrations$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Live Session Integrations' })).toBeVisible();

    await page.keyboard.press('Control+b');
    await expect(drawer).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
  });

  test("'Sign Out' signs out, says so, and the dashboard then asks to sign in again", async ({ page, cloud }) => {
    await signInAs(page, cloud, 'learner');
    await page.getByRole('button', { name: 'Sign Out' }).click();

    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
    await expect(page.getByText('You have been successfully signed out.')).toBeVisible();
    await page.goto('/dashboard/learner');
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard%2Flearner$/);
  });
});

test.describe('pages outside the dashboard', () => {
  test("/checkout/success asks anonymous visitors to sign in, then welcomes them with 'Go to Dashboard'", async ({ page, cloud }) => {
    await page.goto('/checkout/success');
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fcheckout%2Fsuccess$/);
    await submitSignIn(page, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword);

    await expect(page).toHaveURL(/\/checkout\/success$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Platform!' })).toBeVisible();
    await expect(page.getByText(/subscription has been activated/)).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator$/);
  });

  test("an unknown path shows 'Oops! Page not found', logs the path, and 'Return to Home' leads to /", async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto('/no/such/page');

    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    expect(errors.some((e) => e.includes('/no/such/page'))).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("a screen that fails to load shows 'Unexpected Application Error!'", async ({ page, cloud }) => {
    await signInAs(page, cloud, 'creator');
    // Each screen is its own chunk (sales-analytics-screen-<hash>.js built, the module itself from the dev server):
    // refusing it is a routing failure.
    await page.route(/\/sales-analytics-screen[-.][^/]*$/, (route) => route.abort());

    await page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'analytics' }).click();

    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  });
});

import { expect, seriousA11yViolations, test } from './support/cloud.ts';

test.describe('signing in through the web page', () => {
  test("the demo creator signs in, lands on the creator dashboard and sees 'Welcome back!' with their email from GET /api/me", async ({ page, cloud }, testInfo) => {
    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('login-desktop.png'), fullPage: true, animations: 'disabled' });

    await page.getByLabel('Email').fill(cloud.DemoCreatorEmail);
    await page.getByLabel('Password').fill(cloud.DemoCreatorPassword);
    const me = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/me');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page).toHaveURL(/\/dashboard\/creator$/);
    expect((await me).status()).toBe(200);
    await expect(page.getByText('Welcome back!')).toBeVisible();
    await expect(page.getByTestId('user-email')).toHaveText(cloud.DemoCreatorEmail);
    await expect(page.getByTestId('sidebar-role')).toHaveText('Creator');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('signed-in-desktop.png'), fullPage: true, animations: 'disabled' });

    await page.setViewportSize({ width: 375, height: 740 });
    await expect(page.getByTestId('user-email')).toBeVisible();
    // Nothing sticks out sideways at 375 px.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: testInfo.outputPath('signed-in-375.png'), fullPage: true, animations: 'disabled' });

    // A signed-in visitor of / goes to their dashboard, not to the marketing page or the sign-in form.
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard\/creator$/);

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard$/);
  });

  test("a wrong password shows 'Sign in failed' and keeps the visitor on the sign-in page", async ({ page, cloud }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(cloud.DemoCreatorEmail);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByText('Sign in failed', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expect(page).toHaveURL(/\/auth\/login$/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('sign-in-failed-375.png'), fullPage: true, animations: 'disabled' });
  });

  test("an unknown path shows 'Oops! Page not found' with a way home", async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    // An anonymous visitor of / sees the marketing page there.
    await expect(page).toHaveURL(/\/$/);
  });
});

import type { Page, TestInfo } from '@playwright/test';
import { expect, seriousA11yViolations, test } from './support/cloud.ts';

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

async function openLandingPage(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Create. License. Grow.' })).toBeVisible();
}

test.describe('the marketing landing page', () => {
  test('an anonymous visitor of / sees the page, its sections in the order of the spec, and no serious a11y issue', async ({ page }, testInfo) => {
    await openLandingPage(page);
    await expect(page).toHaveURL(/\/$/);

    const banner = page.getByRole('banner');
    const nav = banner.getByRole('navigation', { name: 'Main' });
    for (const name of ['Features', 'Pricing', 'Reviews']) await expect(nav.getByRole('link', { name })).toBeVisible();
    await expect(banner.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth/login');
    await expect(banner.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/auth/signup');

    // Hero, features, testimonials, pricing, FAQ, closing call to action; then the footer.
    const sections = await page.locator('main > section').evaluateAll((els) => els.map((el) => el.getAttribute('aria-labelledby')));
    expect(sections).toEqual(['hero-title', 'features-title', 'reviews-title', 'pricing-title', 'faq-title', 'cta-title']);
    await expect(page.getByRole('heading', { level: 3, name: 'For creators' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: 'For businesses' })).toBeVisible();
    await expect(page.locator('#reviews figure')).toHaveCount(3);
    await expect(page.getByRole('contentinfo')).toBeVisible();

    // The spec's claims and marketing tools.
    const main = page.getByRole('main');
    await expect(main).toContainText('99.9% uptime');
    await expect(main).toContainText('keep 100% of your earnings');
    await expect(main).toContainText('Coupons, affiliates and sales tracking');

    // Pricing: Starter £28/month with the 14-day trial, Pro £67/month marked Most Popular.
    const starter = page.getByTestId('plan-starter');
    const pro = page.getByTestId('plan-pro');
    await expect(starter.getByRole('heading', { name: 'Starter' })).toBeVisible();
    await expect(starter).toContainText('£28/month');
    await expect(starter.getByRole('list', { name: 'Starter features' })).toContainText('14-day free trial');
    await expect(pro.getByRole('heading', { name: 'Pro' })).toBeVisible();
    await expect(pro).toContainText('£67/month');
    await expect(pro.getByText('Most Popular', { exact: true })).toBeVisible();
    await expect(pro.getByRole('list', { name: 'Pro features' })).toContainText('Everything in Starter');

    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'landing-desktop');
  });

  test('the top bar anchors scroll to the Features, Pricing and Reviews sections', async ({ page }) => {
    await openLandingPage(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const targets = [
      { link: 'Pricing', hash: '#pricing', heading: 'Simple, transparent pricing' },
      { link: 'Reviews', hash: '#reviews', heading: 'Creators and teams grow with us' },
      { link: 'Features', hash: '#features', heading: 'Everything you need to teach, license and sell' },
    ];
    for (const { link, hash, heading } of targets) {
      await nav.getByRole('link', { name: link }).click();
      await expect(page).toHaveURL(new RegExp(`/${hash}$`));
      const title = page.getByRole('heading', { level: 2, name: heading });
      await expect(title).toBeInViewport();
      // Not hidden under the sticky top bar.
      await expect
        .poll(async () => (await title.boundingBox())!.y)
        .toBeGreaterThanOrEqual((await page.getByRole('banner').boundingBox())!.height);
    }
  });

  test("'Sign In' opens /auth/login and 'Get Started' opens /auth/signup", async ({ page }) => {
    await openLandingPage(page);
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);

    await openLandingPage(page);
    await page.getByRole('banner').getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/auth\/signup$/);
  });

  test("a plan's 'Get Started' takes an anonymous visitor to /auth/signup", async ({ page }) => {
    await page.goto('/#pricing');
    const pro = page.getByTestId('plan-pro');
    await expect(pro).toBeInViewport();
    await pro.getByRole('button', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/auth\/signup$/);

    await page.goto('/');
    await page.getByTestId('plan-starter').getByRole('button', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/auth\/signup$/);
  });

  test('works by keyboard: a skip link first, and the FAQ opens with Enter', async ({ page }) => {
    await openLandingPage(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();

    const question = page.locator('summary', { hasText: 'Do you take a share of my course sales?' });
    const answer = page.getByText('No. Creators keep 100% of their earnings', { exact: false });
    await expect(answer).toBeHidden();
    await question.focus();
    await page.keyboard.press('Enter');
    await expect(answer).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(answer).toBeHidden();
  });

  test('fits a 375 px screen with every top bar link visible', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await openLandingPage(page);
    const banner = page.getByRole('banner');
    for (const name of ['Features', 'Pricing', 'Reviews', 'Sign In', 'Get Started']) {
      await expect(banner.getByRole('link', { name, exact: true })).toBeInViewport();
    }
    // Nothing sticks out sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'landing-375');

    await banner.getByRole('link', { name: 'Pricing' }).click();
    await expect(page.getByTestId('plan-starter')).toBeInViewport();
  });
});

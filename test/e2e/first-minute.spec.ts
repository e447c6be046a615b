import type { Page } from '@playwright/test';
import { expect, test } from './support/cloud.ts';

// The first minute with the local cloud (`npm start`): the seeded demo creator already runs the Pro plan with its
// credits (and sells: lib/local/demo-business.ts), and the second seeded creator has no plan yet, so both paths are
// one sign-in away.

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
}

test.describe('the seeded creators', () => {
  test('the demo creator signs in to a live Pro plan with its credits, not a plan picker', async ({ page, cloud }) => {
    await signIn(page, cloud.DemoCreatorEmail, cloud.DemoCreatorPassword);

    await expect(page.getByTestId('subscription-plan')).toHaveText('Pro Plan');
    await expect(page.getByTestId('subscription-status')).toHaveText('Active');
    const credits = page.getByRole('region', { name: 'AI Credits' });
    await expect(credits.getByTestId('credits-remaining')).toHaveText(/^\d+$/);
    await expect(credits.getByText('No AI credits yet')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Choose your plan' })).toHaveCount(0);
  });

  test('the new demo creator signs in to the plan picker, with no credits yet', async ({ page, cloud }) => {
    await signIn(page, cloud.DemoNewCreatorEmail, cloud.DemoNewCreatorPassword);

    const choose = page.getByRole('region', { name: 'Choose your plan' });
    await expect(choose).toBeVisible();
    await expect(choose.getByTestId('plan-starter').getByRole('button', { name: 'Get Started' })).toBeEnabled();
    await expect(page.getByRole('region', { name: 'AI Credits' }).getByText('No AI credits yet')).toBeVisible();
  });
});

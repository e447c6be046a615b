import { tmpdir } from 'node:os';
import { CognitoIdentityProviderClient, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { Page, TestInfo } from '@playwright/test';
import { createAccount } from '#core/accounts/create-account.ts';
import { getDeps } from '#functions/composition/deps.ts';
import { applyFunctionEnv, functionEnv } from '#lib/local/function-env.ts';
import type { Outputs } from '#lib/local/outputs.ts';
import { expect, seriousA11yViolations, test } from './support/cloud.ts';

/** A fresh address per test, so reruns against a long-lived `npm start` cloud never collide. */
const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Screenshot at desktop width and at 375 px, after checking axe-core and that nothing scrolls sideways. */
async function captureBothWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath(`${name}-desktop.png`), fullPage: true, animations: 'disabled' });
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  await page.screenshot({ path: testInfo.outputPath(`${name}-375.png`), fullPage: true, animations: 'disabled' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A self-registered creator made through Cognito directly (the pre sign-up trigger confirms it). */
async function signUpCreator(cloud: Outputs, email: string, password: string): Promise<void> {
  const cognito = new CognitoIdentityProviderClient({
    endpoint: cloud.CognitoEndpoint,
    region: cloud.Region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await cognito.send(
      new SignUpCommand({
        ClientId: cloud.UserPoolClientId,
        Username: email,
        Password: password,
        UserAttributes: [{ Name: 'email', Value: email }],
        ClientMetadata: { role: 'creator' },
      }),
    );
  } finally {
    cognito.destroy();
  }
}

/**
 * The link of the newest reset mail SES local holds for `to`, read from GET <SesEndpoint>/store (a self sign-up also
 * gets the welcome email, sent by the campaign sender job within the minute, so the newest mail may be that one).
 */
async function resetLinkFor(cloud: Outputs, to: string): Promise<URL> {
  const { emails } = (await (await fetch(`${cloud.SesEndpoint}/store`)).json()) as {
    emails: { destination: { to: string[] }; subject: string; body: { html?: string } }[];
  };
  const mail = emails.filter((e) => e.destination.to.includes(to) && e.subject === 'Reset your Course Platform password').at(-1);
  expect(mail, `a reset mail to ${to} in the SES store`).toBeDefined();
  const href = /href="([^"]+)"/.exec(mail!.body.html ?? '')?.[1];
  expect(href, 'a link in the mail').toBeDefined();
  return new URL(href!.replaceAll('&amp;', '&'));
}

test.describe('accounts in the browser', () => {
  test('a visitor signs up as a creator, signs in and lands on the creator dashboard', async ({ page }, testInfo) => {
    const email = uniqueEmail('signup');
    await page.goto('/auth/signup');
    await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await expect(page.getByLabel('Account Type')).toHaveValue('creator');
    await captureBothWidths(page, testInfo, 'signup');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Creator123');
    await page.getByLabel('Confirm Password').fill('Creator123');
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page.getByText('Success!', { exact: true })).toBeVisible();
    await expect(page.getByText('Account created successfully! You can now sign in.')).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);
    // The URL changes before the sign-in screen (a lazy chunk) replaces the sign-up form: wait for its button.
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);

    await page.getByLabel('Password', { exact: true }).fill('Creator123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator$/);
  });

  test('signing up again with a taken email toasts the provider message', async ({ page, cloud }) => {
    await page.goto('/auth/signup');
    await page.getByLabel('Email').fill(cloud.DemoCreatorEmail);
    await page.getByLabel('Password', { exact: true }).fill('Creator123');
    await page.getByLabel('Confirm Password').fill('Creator123');
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page.getByText('Sign up failed', { exact: true })).toBeVisible();
    await expect(page.getByText(/already exists/)).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/signup$/);
  });

  test("different passwords raise the alert 'Passwords do not match' and send nothing", async ({ page, cloud }, testInfo) => {
    const signUpCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(cloud.CognitoEndpoint) && request.headers()['x-amz-target']?.endsWith('.SignUp')) {
        signUpCalls.push(request.url());
      }
    });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });

    await page.goto('/auth/signup');
    await page.getByLabel('Email').fill(uniqueEmail('mismatch'));
    await page.getByLabel('Password', { exact: true }).fill('Creator123');
    await page.getByLabel('Confirm Password').fill('Creator124');
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page.getByRole('alert').filter({ hasText: 'Passwords do not match' })).toBeVisible();
    expect(dialogs).toEqual(['Passwords do not match']);
    expect(signUpCalls).toEqual([]);
    await captureBothWidths(page, testInfo, 'signup-mismatch');
  });

  test("a wrong password toasts 'Sign in failed' with the provider message", async ({ page, cloud }, testInfo) => {
    await page.goto('/auth/login');
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/auth/forgot-password');
    await expect(page.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/auth/signup');
    await page.getByLabel('Email').fill(cloud.DemoCreatorEmail);
    await page.getByLabel('Password').fill('NotThePassword1');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByText('Sign in failed', { exact: true })).toBeVisible();
    // The provider's message, as the cloud pool words it (the local shim answers the same).
    await expect(page.getByText('Incorrect username or password.')).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await captureBothWidths(page, testInfo, 'login-failed');
  });

  test('a forgotten password is reset through the emailed link, then the new one signs in', async ({ page, cloud }, testInfo) => {
    const email = uniqueEmail('reset');
    await signUpCreator(cloud, email, 'Original123');

    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/auth\/forgot-password$/);
    await expect(page.getByText('Remember your password?')).toBeVisible();
    await captureBothWidths(page, testInfo, 'forgot-password');

    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Check your email for a password reset link')).toBeVisible();
    await expect(page.getByText('Check your email', { exact: true })).toBeVisible();
    await expect(page.getByText("We've sent you a password reset link.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/auth/login');
    await expect(page.getByText('Remember your password?')).toHaveCount(0);
    await captureBothWidths(page, testInfo, 'forgot-password-sent');

    const link = await resetLinkFor(cloud, email);
    expect(link.origin).toBe(new URL(cloud.WebUrl).origin);
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('email')).toBe(email);

    await page.goto(link.href);
    await expect(page.getByLabel('Code')).toHaveValue(link.searchParams.get('code')!);
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await captureBothWidths(page, testInfo, 'reset-password');
    await page.getByLabel('New password', { exact: true }).fill('Renewed123');
    await page.getByLabel('Confirm new password').fill('Renewed123');
    await page.getByRole('button', { name: 'Reset Password' }).click();

    await expect(page).toHaveURL(/\/auth\/login$/);
    // The sign-in form itself, not the reset form still leaving (it has an Email field with the same value too).
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await page.getByLabel('Password', { exact: true }).fill('Original123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Sign in failed', { exact: true })).toBeVisible();

    await page.getByLabel('Password', { exact: true }).fill('Renewed123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard\/creator$/);
  });

  test('a wrong reset code toasts the provider message', async ({ page, cloud }) => {
    const email = uniqueEmail('badcode');
    await signUpCreator(cloud, email, 'Original123');
    await page.goto('/auth/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Check your email for a password reset link')).toBeVisible();

    await page.goto(`/reset-password?code=000000&email=${encodeURIComponent(email)}`);
    await page.getByLabel('New password', { exact: true }).fill('Renewed123');
    await page.getByLabel('Confirm new password').fill('Renewed123');
    await page.getByRole('button', { name: 'Reset Password' }).click();

    await expect(page.getByText('Reset failed', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/reset-password\?/);
  });

  test('an invited learner chooses a new password at first sign-in and lands on their dashboard', async ({ page, cloud }, testInfo) => {
    // Created as an inviting creator's handler would: AdminCreateUser with a temporary password (through the
    // local Cognito), the learner group and the profile.
    applyFunctionEnv(functionEnv(cloud, tmpdir()));
    const email = uniqueEmail('invited');
    await createAccount(getDeps(), { email, role: 'learner', temporaryPassword: 'Temporary123' });

    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Temporary123');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await captureBothWidths(page, testInfo, 'new-password');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByLabel('New password', { exact: true }).fill('Chosen1234');
    await page.getByLabel('Confirm new password').fill('Chosen12345');
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Passwords do not match' })).toBeVisible();

    await page.getByLabel('Confirm new password').fill('Chosen1234');
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await expect(page).toHaveURL(/\/dashboard\/learner$/);

    // The chosen password is the account's password from now on.
    await page.context().clearCookies();
    await page.evaluate('window.localStorage.clear()');
    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Chosen1234');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard\/learner$/);
  });
});

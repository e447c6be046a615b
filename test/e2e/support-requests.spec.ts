import type { Browser, Page } from '@playwright/test';
import type { Outputs } from '#lib/local/outputs.ts';
import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, signInAsAdmin, test } from './support/cloud.ts';

// Issue 29 point 4 in a real browser against the local cloud: a Pro and a Starter creator each ask for help from their
// Support page, the admin's Support inbox lists the Pro request first, the admin replies and closes it, the creator
// reads the reply in their thread, and the reply's email is in SES local's store.

const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title });

/** A creator on `plan`, subscribed the way a creator subscribes (checkout through the API, Pay on the Stripe stand-in). */
const creatorOn = async (cloud: Outputs, plan: 'starter' | 'pro') => {
  const account = await createTestAccount(cloud, 'creator', `support-${plan}`, { plan: 'none' });
  const token = await accessToken(cloud, account.email, account.password);
  const checkout = await api<{ url: string }>(cloud, token, 'POST', '/api/billing/checkout', { planType: plan, successUrl: `${cloud.WebUrl}/ok`, cancelUrl: `${cloud.WebUrl}/no` });
  expect((await fetch(`${checkout.url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  await expect.poll(async () => (await api<{ tier: string | null }>(cloud, token, 'GET', '/api/me/subscription')).tier, { timeout: 30_000 }).toBe(plan);
  return account;
};

/** A creator signed in in a browser of their own, on their Support page (reached from the sidebar). */
const supportPageOf = async (browser: Browser, cloud: Outputs, account: { email: string; password: string }) => {
  const page = await (await browser.newContext({ baseURL: cloud.WebUrl })).newPage();
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.getByRole('navigation', { name: 'Help' }).getByRole('link', { name: 'Support' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/support$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  return page;
};

const ask = async (page: Page, subject: string, message: string) => {
  await page.getByRole('textbox', { name: /^Subject/ }).fill(subject);
  await page.getByRole('textbox', { name: /^Message/ }).fill(message);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(toast(page, 'Request sent')).toBeVisible();
  return page.getByRole('article').filter({ has: page.getByRole('heading', { name: subject }) });
};

test('a Pro and a Starter creator ask for help; the admin sees the Pro request first, replies and closes it; the creator reads the reply and has the email', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const [starter, pro] = await Promise.all([creatorOn(cloud, 'starter'), creatorOn(cloud, 'pro')]);
  const stamp = Date.now();
  const starterSubject = `Coupons question ${stamp}`;
  const proSubject = `Payout missing ${stamp}`;

  // The Starter creator: the empty page, the form's messages, then their request, standard (no Priority badge).
  const starterPage = await supportPageOf(browser, cloud, starter);
  await expect(starterPage.getByRole('heading', { name: 'No requests yet' })).toBeVisible();
  await expect(starterPage.getByText('You are on Pro: your requests are answered first.')).toHaveCount(0);
  await checkAndShoot(starterPage, testInfo, 'support-creator-empty');
  await starterPage.getByRole('button', { name: 'Send request' }).click();
  await expect(starterPage.getByText('Write a subject.')).toBeVisible();
  await expect(starterPage.getByText('Write a message.')).toBeVisible();
  await expect(starterPage.getByRole('textbox', { name: /^Subject/ })).toBeFocused();
  await checkAndShoot(starterPage, testInfo, 'support-creator-invalid');
  const starterRequest = await ask(starterPage, starterSubject, 'How do I limit a coupon to one course?');
  await expect(starterRequest).toContainText('No reply yet.');
  await expect(starterRequest.getByText('Priority', { exact: true })).toHaveCount(0);
  // They add a detail to it: theirs in the thread.
  await starterRequest.getByRole('textbox', { name: 'Add to this request' }).fill('It is for the course Knife Skills.');
  await starterRequest.getByRole('button', { name: 'Add message' }).click();
  await expect(toast(starterPage, 'Message added')).toBeVisible();
  await expect(starterRequest.getByRole('listitem').filter({ hasText: 'It is for the course Knife Skills.' })).toContainText('You');

  // The Pro creator: told they come first; their request carries the Priority badge.
  const proPage = await supportPageOf(browser, cloud, pro);
  await expect(proPage.getByText('You are on Pro: your requests are answered first.')).toBeVisible();
  const proRequest = await ask(proPage, proSubject, 'My payout of last week did not arrive.\nCan you check?');
  await expect(proRequest.getByText('Priority', { exact: true })).toBeVisible();
  await checkAndShoot(proPage, testInfo, 'support-creator-sent');

  // The admin's inbox: the Pro request (asked last) above the Starter one, each with its priority and age.
  await signInAsAdmin(page, cloud);
  await page.getByRole('navigation', { name: 'Help' }).getByRole('link', { name: 'Support' }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/support$/);
  const open = page.getByRole('list', { name: 'Open requests' });
  await expect(open).toContainText(proSubject);
  await expect(open).toContainText(starterSubject);
  const subjects = await open.getByRole('heading').allTextContents();
  expect(subjects.indexOf(proSubject), subjects.join(' | ')).toBeLessThan(subjects.indexOf(starterSubject));
  const proRow = open.getByRole('listitem').filter({ has: page.getByRole('heading', { name: proSubject }) });
  const starterRow = open.getByRole('listitem').filter({ has: page.getByRole('heading', { name: starterSubject }) });
  await expect(proRow).toContainText('Priority');
  await expect(proRow).toContainText(pro.email);
  await expect(proRow).toContainText(/Waiting (just now|\d+ min)/);
  await expect(starterRow).toContainText('Standard');
  await expect(starterRow).toContainText('0 replies');
  await checkAndShoot(page, testInfo, 'support-inbox');

  // Open it (by keyboard), reply and close, behind the confirmation.
  await proRow.getByRole('button', { name: `View: ${proSubject}` }).focus();
  await page.keyboard.press('Enter');
  await expect(proRow).toContainText('My payout of last week did not arrive.');
  await proRow.getByRole('textbox', { name: /^Your reply/ }).fill('It left on Monday and lands within two working days.');
  await checkAndShoot(page, testInfo, 'support-inbox-open');
  await proRow.getByRole('button', { name: 'Reply and close' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Reply and close this request?' });
  await checkAndShoot(page, testInfo, 'support-inbox-confirm', { confirm });
  await confirm.getByRole('button', { name: 'Reply and close' }).click();
  await expect(toast(page, 'Reply sent and request closed')).toBeVisible();
  await expect(open.getByRole('heading', { name: proSubject })).toHaveCount(0);
  await expect(open).toContainText(starterSubject);
  await page.getByRole('tab', { name: 'Closed' }).click();
  const closed = page.getByRole('list', { name: 'Closed requests' });
  await expect(closed).toContainText(proSubject);
  await checkAndShoot(page, testInfo, 'support-inbox-closed');

  // The Pro creator reads the reply in their thread, the request closed.
  await proPage.reload();
  const answered = proPage.getByRole('article').filter({ has: proPage.getByRole('heading', { name: proSubject }) });
  await expect(answered).toContainText('It left on Monday and lands within two working days.');
  await expect(answered.getByText('Closed', { exact: true })).toBeVisible();
  await checkAndShoot(proPage, testInfo, 'support-creator-replied');

  // And the email: the reply and the link back to the Support page.
  await expect.poll(async () => (await mailsTo(cloud, pro.email)).filter((mail) => mail.subject === 'Course Platform support answered your request').length, { timeout: 30_000 }).toBe(1);
  const mail = (await mailsTo(cloud, pro.email)).find((m) => m.subject === 'Course Platform support answered your request')!;
  expect(mail.body.text).toContain('It left on Monday and lands within two working days.');
  expect(mail.body.text).toContain(`${new URL(cloud.WebUrl).origin}/dashboard/creator/support`);
  expect(await mailsTo(cloud, starter.email)).not.toContainEqual(expect.objectContaining({ subject: 'Course Platform support answered your request' }));
});

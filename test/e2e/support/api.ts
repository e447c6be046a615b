import type { Page } from '@playwright/test';
import { signInAs } from '#lib/local/demo-flows.ts';
import type { Outputs } from '#lib/local/outputs.ts';
import { expect } from './cloud.ts';

/** What the journeys do besides the browser: the API as an account, the mails SES local holds, the sign-in page. */

/** The creator's access token, as the web app would hold it (the seed's own sign-in, lib/local/demo-flows.ts). */
export const accessToken = (cloud: Outputs, email: string, password: string): Promise<string> => signInAs(cloud, email, password);

/** One API call as the creator; a failure names the call and its answer. */
export async function api<T>(cloud: Outputs, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${cloud.ApiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  expect(res.ok, `${method} ${path} -> ${res.status} ${text}`).toBe(true);
  return JSON.parse(text) as T;
}

export interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
  /** Files sent with it (a session's .ics), `content` base64. */
  attachments?: { filename?: string; contentType: string; content: string }[];
}

/** The mails SES local holds for `to` (GET <SesEndpoint>/store), oldest first. */
export async function mailsTo(cloud: Outputs, to: string): Promise<StoredMail[]> {
  const { emails } = (await (await fetch(`${cloud.SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
  return emails.filter((mail) => mail.destination.to.includes(to));
}

/**
 * Starts a scheduled job's run now, as EventBridge Scheduler would (Lambda's asynchronous invoke at the local
 * LambdaEndpoint): a journey waits for the job's work, not for its next minute. The scheduled runs go on too: the jobs
 * are idempotent, and a journey that sees one email after two runs shows it.
 */
export async function startJob(cloud: Outputs, name: string): Promise<void> {
  const started = await fetch(`${cloud.LambdaEndpoint}/2015-03-31/functions/${name}/invocations`, { method: 'POST', headers: { 'x-amz-invocation-type': 'Event' }, body: '{}' });
  expect(started.status, `the ${name} job started`).toBe(202);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

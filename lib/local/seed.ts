import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { Role } from '#contracts/common.ts';
import { backfillCourseFigures, backfillCourseIndex } from '#data/courses.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { ConflictError } from '#core/errors.ts';
import { getDeps } from '#functions/deps.ts';
import { seedDemoCatalogue } from './demo-catalogue.ts';
import type { Outputs } from './outputs.ts';

/** The seeded accounts: fixed so the README, the banner and the browser tests can name them. */
export const seedAccounts = {
  admin: { email: 'admin@example.com', password: 'AdminPass123', role: 'admin' },
  /** On a Starter trial with its credits: signing in shows a live account. */
  creator: { email: 'creator@example.com', password: 'CreatorPass123', role: 'creator' },
  /** Never subscribed: signing in shows the plan picker. */
  newCreator: { email: 'newcreator@example.com', password: 'CreatorPass123', role: 'creator' },
} as const satisfies Record<string, { email: string; password: string; role: Role }>;

export interface SeedOptions {
  outputs: Outputs;
  /** Which Stripe the functions use (stripe/mode.ts): the demo trial is paid on the stand-in's page only. */
  stripe: 'stand-in' | 'real';
  log: (line: string) => void;
}

/** What the banner says of the demo creator's plan: how the seed left it. */
export type DemoTrial = 'trial' | 'existing' | 'real-stripe' | 'failed';

/**
 * Seeds through the same use case an admin uses to create an account (Cognito user with a permanent
 * password, its group, the profile and counters), so seeded data is shaped like real data. Idempotent:
 * an account that exists is left as it is. Then the demo creator's courses and learners (demo-catalogue.ts).
 * Needs the handler environment (functionEnv) applied first, and the gateway up (the demo trial goes through the
 * API and the webhook).
 */

export const seed = async (opts: SeedOptions): Promise<{ demoTrial: DemoTrial }> => {
  const deps = getDeps();
  // Before anything is seeded: the platform's course figures of data kept from a version that did not count them.
  const figures = await backfillCourseFigures();
  if (figures && figures.courses > 0) opts.log(`[seed] course figures counted for ${figures.courses} earlier course(s)`);
  for (const account of Object.values(seedAccounts)) {
    try {
      await createAccount(deps, { email: account.email, role: account.role, password: account.password });
      opts.log(`[seed] created ${account.role} ${account.email}`);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  const demoTrial = await seedDemoTrial(opts);
  try {
    await seedDemoCatalogue({ creatorEmail: seedAccounts.creator.email, log: opts.log });
  } catch (error) {
    // The cloud still starts: the demo creator then has fewer courses or learners than usual.
    opts.log(`[seed] WARNING: the demo courses and learners were not fully seeded: ${(error as Error)?.message ?? String(error)}`);
  }
  // Data kept from an earlier version of the local cloud gets what later versions index (bin/backfill.ts in the cloud).
  const indexed = await backfillCourseIndex();
  if (indexed > 0) opts.log(`[seed] ${indexed} earlier courses added to the admin's course list`);
  return { demoTrial };
};

/**
 * The demo creator's Starter trial, the way a creator gets one: signed in, `POST /api/billing/checkout` through the
 * gateway, then **Pay** on the Stripe stand-in's hosted page, which delivers the signed events to the real webhook
 * handler before it answers. A creator with any subscription history is left as they are, so a restart never
 * subscribes twice. A failure is reported and the cloud still starts: the creator then shows the plan picker.
 */
const seedDemoTrial = async ({ outputs, stripe, log }: SeedOptions): Promise<DemoTrial> => {
  const { email, password } = seedAccounts.creator;
  if (stripe === 'real') {
    log(`[seed] real Stripe: ${email} is not subscribed for you (subscribe from the dashboard)`);
    return 'real-stripe';
  }
  try {
    const token = await signIn(outputs, email, password);
    const current = await api<{ status: string }>(outputs, 'GET', '/api/me/subscription', token);
    if (current.status !== 'none') return current.status === 'trialing' ? 'trial' : 'existing';

    const { url } = await api<{ url: string }>(outputs, 'POST', '/api/billing/checkout', token, {
      planType: 'starter',
      successUrl: `${outputs.WebUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${outputs.WebUrl}/dashboard/creator`,
    });
    const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
    await paid.body?.cancel();
    if (paid.status !== 303) throw new Error(`the stand-in's Pay answered ${paid.status}`);

    const after = await api<{ status: string; tier: string | null }>(outputs, 'GET', '/api/me/subscription', token);
    if (after.status !== 'trialing') throw new Error(`the subscription is "${after.status}" after Pay (did the webhook reach the handler?)`);
    log(`[seed] ${email} is on a Starter trial`);
    return 'trial';
  } catch (error) {
    log(`[seed] WARNING: the demo creator's Starter trial was not seeded: ${(error as Error)?.message ?? String(error)}`);
    return 'failed';
  }
};

const signIn = async (outputs: Outputs, email: string, password: string): Promise<string> => {
  const cognito = new CognitoIdentityProviderClient({
    region: outputs.Region,
    endpoint: outputs.CognitoEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: outputs.UserPoolClientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
    const token = auth.AuthenticationResult?.AccessToken;
    if (!token) throw new Error(`signing in as ${email} gave no access token (challenge ${auth.ChallengeName ?? 'none'})`);
    return token;
  } finally {
    cognito.destroy();
  }
};

/** One call to the platform's API as the web app makes it; a non-2xx answer is an error naming the route. */
const api = async <T>(outputs: Outputs, method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${outputs.ApiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': `seed-${randomUUID()}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
};

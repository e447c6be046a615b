import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { Outputs } from './outputs.ts';

/**
 * The product's business flows driven from outside, as a person in a browser drives them: through the gateway's API,
 * the Stripe stand-in's hosted pages (Connect onboarding, Pay) and its signed webhooks to the real handlers. The seed
 * makes the demo's sales this way, and the authorization matrix its second creator's real ids.
 */

/** A non-2xx answer of the API: the route and what it said. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly route: string,
    readonly body: string,
  ) {
    super(`${route} answered ${status}: ${body}`);
  }
}

export type Call = <T = unknown>(method: string, path: string, init?: { token?: string; body?: unknown }) => Promise<T>;

/** One call to the platform's API as the web app makes it (an Idempotency-Key with every body); non-2xx throws. */
export const apiCaller =
  (outputs: Pick<Outputs, 'ApiUrl'>): Call =>
  async <T>(method: string, path: string, init: { token?: string; body?: unknown } = {}): Promise<T> => {
    const res = await fetch(`${outputs.ApiUrl}${path}`, {
      method,
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': `demo-${randomUUID()}` }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      redirect: 'manual',
    });
    const text = await res.text();
    if (!res.ok) throw new ApiCallError(res.status, `${method} ${path}`, text);
    return (text ? JSON.parse(text) : undefined) as T;
  };

/** An access token for `email`, as the SPA signs in (USER_PASSWORD_AUTH against the local Cognito). */
export const signInAs = async (outputs: Pick<Outputs, 'Region' | 'CognitoEndpoint' | 'UserPoolClientId'>, email: string, password: string): Promise<string> => {
  const cognito = new CognitoIdentityProviderClient({
    region: outputs.Region,
    endpoint: outputs.CognitoEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const auth = await cognito.send(
      new InitiateAuthCommand({ ClientId: outputs.UserPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
    );
    const token = auth.AuthenticationResult?.AccessToken;
    if (!token) throw new Error(`signing in as ${email} gave no access token (challenge ${auth.ChallengeName ?? 'none'})`);
    return token;
  } finally {
    cognito.destroy();
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads until `done` says yes (a webhook's effect), every 200 ms for up to `ms`; throws naming `what` otherwise. */
export const until = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: still not done after ${ms} ms`);
    await sleep(200);
  }
};

/**
 * A creator's plan, the way a creator gets one: `POST /api/billing/checkout`, then **Pay** on the stand-in's hosted page,
 * which delivers the signed events to the real webhook handler. Answers the subscription as `GET /api/me/subscription`
 * shows it once the plan is there.
 */
export const subscribeToPlan = async (call: Call, outputs: Pick<Outputs, 'WebUrl'>, token: string, planType: 'starter' | 'pro'): Promise<{ status: string; tier: string | null }> => {
  const { url } = await call<{ url: string }>('POST', '/api/billing/checkout', {
    token,
    body: { planType, successUrl: `${outputs.WebUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}`, cancelUrl: `${outputs.WebUrl}/dashboard/creator` },
  });
  const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
  await paid.body?.cancel();
  if (paid.status !== 303) throw new Error(`the stand-in's Pay answered ${paid.status}`);
  return until(
    `the ${planType} plan after Pay (did the webhook reach the handler?)`,
    () => call<{ status: string; tier: string | null }>('GET', '/api/me/subscription', { token }),
    (s) => s.tier === planType && (s.status === 'active' || s.status === 'trialing'),
  );
};

/**
 * The creator's Stripe account able to take payments: 'Connect Stripe' (an Account Link), **Complete onboarding** on the
 * stand-in's page, whose `account.updated` reaches the Connect webhook. A creator already enabled is left as they are.
 */
export const connectPayouts = async (call: Call, outputs: Pick<Outputs, 'WebUrl'>, token: string): Promise<void> => {
  const payouts = () => call<{ status: string }>('GET', '/api/creator/payouts', { token });
  if ((await payouts()).status === 'enabled') return;
  const back = `${outputs.WebUrl}/dashboard/creator/profile`;
  const { url } = await call<{ url: string }>('POST', '/api/creator/payouts/connect', { token, body: { returnUrl: back, refreshUrl: back } });
  await (await fetch(url)).text();
  const done = await fetch(`${url}/complete`, { method: 'POST', redirect: 'manual' });
  await done.body?.cancel();
  if (done.status !== 302 && done.status !== 303) throw new Error(`the stand-in's Complete onboarding answered ${done.status}`);
  await until('payouts enabled after onboarding', payouts, (p) => p.status === 'enabled');
};

export interface SaleLine {
  id: string;
  courseId: string;
  buyerEmail: string;
  status: string;
  amount: number;
}

/** The creator's sales, newest first (the first page: enough for the demo and the tests). */
export const listSales = async (call: Call, token: string): Promise<SaleLine[]> => (await call<{ items: SaleLine[] }>('GET', '/api/sales', { token })).items;

/**
 * A buyer's purchase of a published, priced course: the public checkout (with `email`, and a coupon code or a referral
 * if given), then **Pay** on the stand-in's hosted page, which sends the signed Connect events to the real webhook.
 * Answers the paid order as the creator's sales list shows it.
 */
export const buyCourse = async (
  call: Call,
  outputs: Pick<Outputs, 'WebUrl'>,
  input: { creatorToken: string; courseId: string; email: string; couponCode?: string; ref?: string },
): Promise<SaleLine> => {
  const page = `${outputs.WebUrl}/c/${input.courseId}`;
  const { url } = await call<{ url: string }>('POST', `/api/public/courses/${input.courseId}/checkout`, {
    body: {
      successUrl: `${page}?purchase=success`,
      cancelUrl: page,
      email: input.email,
      ...(input.couponCode ? { couponCode: input.couponCode } : {}),
      ...(input.ref ? { ref: input.ref } : {}),
    },
  });
  const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
  await paid.body?.cancel();
  if (paid.status !== 303) throw new Error(`the stand-in's Pay answered ${paid.status}`);
  const sales = await until(
    `the paid order of ${input.email}`,
    () => listSales(call, input.creatorToken),
    (items) => items.some((s) => s.courseId === input.courseId && s.buyerEmail === input.email && s.status === 'paid'),
  );
  return sales.find((s) => s.courseId === input.courseId && s.buyerEmail === input.email && s.status === 'paid')!;
};

/** A visitor follows an affiliate's link: the click is kept and counted; answers the `ref` cookie's value for the checkout. */
export const followReferral = async (outputs: Pick<Outputs, 'ApiUrl'>, code: string, to = '/'): Promise<string> => {
  const res = await fetch(`${outputs.ApiUrl}/api/public/r/${code}?to=${encodeURIComponent(to)}`, { redirect: 'manual' });
  await res.body?.cancel();
  const ref = /^ref=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (res.status !== 302 || !ref) throw new Error(`the referral link ${code} answered ${res.status} without a ref cookie`);
  return ref;
};

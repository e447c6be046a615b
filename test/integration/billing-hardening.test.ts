import { describe, expect, it } from 'vitest';
import { dynamoBilling } from '#data/billing.ts';
import { credits, deliver, giveCredits, subscription } from './billing-support.ts';
import { accountWithRole, api, outputs, postRaw, signIn, useLocalCloudEnv } from './support.ts';

const origin = () => new URL(outputs().WebUrl).origin;
const urls = () => ({ successUrl: `${origin()}/checkout/success`, cancelUrl: `${origin()}/#pricing` });
const stripeUrl = (path: string) => `${outputs().StripeApiUrl}${path}`;

const pay = async (checkoutUrl: string) => {
  const paid = await fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
};

interface StandInState {
  subscriptions: Record<string, { id: string; customer: string; status: string; trial_end: number | null; metadata: { userId?: string } }>;
  checkoutSessions: Record<string, { id: string; customer: string | null; status: string; client_reference_id?: string | null }>;
}
const standIn = async (): Promise<StandInState> => (await fetch(stripeUrl('/_stand-in/state'))).json() as Promise<StandInState>;

const cancelInPortal = async (token: string, subscriptionId: string) => {
  const portal = await api('POST', '/api/billing/portal', { token, body: { returnUrl: `${origin()}/dashboard/creator` } });
  expect(portal.status).toBe(200);
  const cancelled = await fetch(`${portal.body.url}/subscriptions/${subscriptionId}/cancel`, { method: 'POST', redirect: 'manual' });
  expect(cancelled.status).toBe(303);
};

describe('one free trial per creator', () => {
  it('cancel -> resubscribe to Starter: no second trial, billed at once, and the credits stay as they were', async () => {
    const creator = await accountWithRole('creator', 'second-trial', { plan: 'none' });
    expect((await subscription(creator.token)).trialAvailable).toBe(true);

    const first = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() } });
    await pay(first.body.url);
    expect(await subscription(creator.token)).toMatchObject({ status: 'trialing', onTrial: true, trialAvailable: false });
    const spent = await api('POST', '/api/credits/use', { token: creator.token, body: { creditsToUse: 15, actionType: 'test_spend' } });
    expect(spent.status).toBe(200);

    const sub = Object.values((await standIn()).subscriptions).find((s) => s.metadata.userId === creator.id)!;
    await cancelInPortal(creator.token, sub.id);
    expect(await subscription(creator.token)).toMatchObject({ status: 'canceled', trialAvailable: false });
    const creditsBefore = await credits(creator.token);

    const again = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() } });
    expect(again.status).toBe(200);
    await pay(again.body.url);
    expect(await subscription(creator.token)).toMatchObject({ status: 'active', subscribed: true, tier: 'starter', onTrial: false, trialEnd: null, trialAvailable: false });
    const second = Object.values((await standIn()).subscriptions).filter((s) => s.metadata.userId === creator.id && s.id !== sub.id);
    expect(second).toHaveLength(1);
    expect(second[0]!.trial_end).toBeNull();
    // Resubscribing inside the period grants nothing: the balance and the usage are what they were.
    const creditsAfter = await credits(creator.token);
    expect(creditsAfter).toMatchObject({ creditsRemaining: creditsBefore.creditsRemaining, creditsUsed: creditsBefore.creditsUsed, monthlyAllocation: 50 });
    expect(creditsAfter.creditsRemaining).toBe(35);
  });
});

describe('checkout is idempotent end to end', () => {
  it('five checkouts at once by one creator make one Stripe session; the others get it again or a 409', async () => {
    const creator = await accountWithRole('creator', 'racing-checkout', { plan: 'none' });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() } })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const urlsGiven = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.url as string));
    expect(urlsGiven.size).toBe(1);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.error.code).toBe('CONFLICT');
    const sessions = Object.values((await standIn()).checkoutSessions).filter((s) => s.client_reference_id === creator.id);
    expect(sessions).toHaveLength(1);

    // Paying it makes one subscription; a later click is refused as already subscribed.
    await pay([...urlsGiven][0]!);
    const subs = Object.values((await standIn()).subscriptions).filter((s) => s.metadata.userId === creator.id);
    expect(subs).toHaveLength(1);
    expect((await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() } })).status).toBe(409);
  });

  it('a second click of the same plan gets the same session; another plan replaces it and the old one cannot be paid', async () => {
    const creator = await accountWithRole('creator', 'changing-plan', { plan: 'none' });
    const a = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() }, headers: { 'idempotency-key': 'intent-0001' } });
    const b = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() }, headers: { 'idempotency-key': 'intent-0002' } });
    expect(b.body.url).toBe(a.body.url);
    const pro = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'pro', ...urls() } });
    expect(pro.status).toBe(200);
    expect(pro.body.url).not.toBe(a.body.url);
    const old = (await standIn()).checkoutSessions[a.body.url.split('/').pop()];
    expect(old?.status).toBe('expired');
    expect((await fetch(`${a.body.url}/pay`, { method: 'POST', redirect: 'manual' })).status).not.toBe(303);
    await pay(pro.body.url);
    expect(await subscription(creator.token)).toMatchObject({ status: 'active', tier: 'pro' });
  });

  it('refuses a malformed Idempotency-Key with 400 on checkout, portal, top-up and spend, and calls nothing', async () => {
    const creator = await accountWithRole('creator', 'bad-key');
    const headers = { 'idempotency-key': 'not a key!' };
    const calls = [
      api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() }, headers }),
      api('POST', '/api/billing/portal', { token: creator.token, body: { returnUrl: `${origin()}/dashboard` }, headers }),
      api('POST', '/api/credits/purchase', { token: creator.token, body: { creditAmount: 100, ...urls() }, headers }),
      api('POST', '/api/credits/use', { token: creator.token, body: { creditsToUse: 1, actionType: 'x' }, headers }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain('idempotency-key');
    }
    expect(Object.values((await standIn()).checkoutSessions).filter((s) => s.client_reference_id === creator.id)).toHaveLength(0);
  });

  it('the same Idempotency-Key on a top-up gets the same session and one pending purchase', async () => {
    const creator = await accountWithRole('creator', 'top-up-retry');
    await giveCredits(creator.id, 10);
    const body = { creditAmount: 100, successUrl: `${origin()}/dashboard`, cancelUrl: `${origin()}/dashboard` };
    const headers = { 'idempotency-key': `top-up-${creator.id}` };
    const [first, retry] = await Promise.all([
      api('POST', '/api/credits/purchase', { token: creator.token, body, headers }),
      api('POST', '/api/credits/purchase', { token: creator.token, body, headers }),
    ]);
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.body.url).toBe(first.body.url);
    await pay(first.body.url);
    expect((await credits(creator.token)).creditsRemaining).toBe(110);
  });
});

describe('tokens', () => {
  it('answers 401 to an ID token, even a valid one of our own app client', async () => {
    const creator = await accountWithRole('creator', 'id-token');
    const res = await fetch(`${outputs().CognitoEndpoint}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
      body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: outputs().UserPoolClientId, AuthParameters: { USERNAME: creator.email, PASSWORD: creator.password } }),
    });
    const idToken = ((await res.json()) as { AuthenticationResult: { IdToken: string } }).AuthenticationResult.IdToken;
    expect((await api('GET', '/api/me', { token: idToken })).status).toBe(401);
    expect((await api('GET', '/api/me', { token: await signIn(creator.email, creator.password) })).status).toBe(200);
  });
});

describe('webhook edges', () => {
  const session = (id: string, type: string, paymentStatus: string, customer: string | null = null) => ({
    id: `evt_${id}_${type}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: { id, object: 'checkout.session', mode: 'payment', customer, payment_status: paymentStatus } },
  });
  const pendingTopUp = async (userId: string) => {
    useLocalCloudEnv();
    const sessionId = `cs_test_async_${userId}_${Date.now()}`;
    await dynamoBilling().savePendingPurchase({ sessionId, userId, credits: 100, pricePence: 500, createdAt: new Date().toISOString() });
    return sessionId;
  };

  it('refuses a webhook body over 256 KiB with 413 and reads nothing', async () => {
    const res = await postRaw('/api/webhooks/stripe', JSON.stringify({ padding: 'x'.repeat(300 * 1024) }), { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('accepts a signed event between 64 and 256 KiB', async () => {
    const event = { ...session('cs_big', 'customer.created', 'paid'), data: { object: { id: 'cus_big', object: 'customer', description: 'x'.repeat(100 * 1024) } } };
    expect((await deliver(event)).status).toBe(200);
  });

  it('grants a top-up paid by a delayed method when its async payment succeeds, once', async () => {
    const creator = await accountWithRole('creator', 'async-paid');
    await giveCredits(creator.id, 5);
    const sessionId = await pendingTopUp(creator.id);
    expect((await deliver(session(sessionId, 'checkout.session.completed', 'unpaid'))).status).toBe(200);
    expect((await credits(creator.token)).creditsRemaining).toBe(5);
    const succeeded = session(sessionId, 'checkout.session.async_payment_succeeded', 'paid');
    expect((await deliver(succeeded)).status).toBe(200);
    expect((await deliver(succeeded)).status).toBe(200);
    expect(await credits(creator.token)).toMatchObject({ creditsRemaining: 105, lastTransaction: { actionType: 'credit_top_up', credits: 100 } });
  });

  it('marks a top-up whose async payment failed, and grants nothing for it later', async () => {
    const creator = await accountWithRole('creator', 'async-failed');
    await giveCredits(creator.id, 5);
    const sessionId = await pendingTopUp(creator.id);
    expect((await deliver(session(sessionId, 'checkout.session.async_payment_failed', 'unpaid'))).status).toBe(200);
    expect(await dynamoBilling().getPendingPurchase(sessionId)).toMatchObject({ status: 'failed' });
    await deliver(session(sessionId, 'checkout.session.async_payment_succeeded', 'paid'));
    expect((await credits(creator.token)).creditsRemaining).toBe(5);
  });

  it('opens a credit account for a paid top-up whose buyer has none, instead of losing it', async () => {
    const creator = await accountWithRole('creator', 'no-account-top-up');
    expect(await credits(creator.token)).toBeNull();
    const sessionId = await pendingTopUp(creator.id);
    expect((await deliver(session(sessionId, 'checkout.session.completed', 'paid'))).status).toBe(200);
    expect(await credits(creator.token)).toMatchObject({ creditsRemaining: 100, creditsUsed: 0, lastTransaction: { actionType: 'credit_top_up', credits: 100 } });
  });

  it('an expired subscription checkout frees the slot: the next checkout makes a new session', async () => {
    const creator = await accountWithRole('creator', 'expired-checkout', { plan: 'none' });
    const first = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'pro', ...urls() } });
    const sessionId: string = first.body.url.split('/').pop();
    const customer = (await standIn()).checkoutSessions[sessionId]!.customer;
    const expired = { ...session(sessionId, 'checkout.session.expired', 'unpaid'), data: { object: { id: sessionId, object: 'checkout.session', mode: 'subscription', customer, payment_status: 'unpaid' } } };
    expect((await deliver(expired)).status).toBe(200);
    useLocalCloudEnv();
    expect(await dynamoBilling().getOpenCheckout(creator.id)).toBeUndefined();
    const next = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'pro', ...urls() } });
    expect(next.status).toBe(200);
    expect(next.body.url).not.toBe(first.body.url);
  });
});

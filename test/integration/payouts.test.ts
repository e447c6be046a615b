import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { payoutKeys } from '#data/payouts.ts';
import { signed } from './billing-support.ts';
import { accountWithRole, api, dynamo, eventually, outputs, postRaw } from './support.ts';

/** The creator's payment account end to end: the gateway, the handlers, DynamoDB Local and the Stripe stand-in's Connect. */
const origin = () => outputs().WebUrl;
const body = () => ({ returnUrl: `${origin()}/dashboard/creator/profile?payouts=return`, refreshUrl: `${origin()}/dashboard/creator/profile?payouts=refresh` });

const stored = async (userId: string) =>
  (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: payoutKeys.account(userId), ConsistentRead: true }))).Item;

const payouts = async (token: string) => (await api('GET', '/api/creator/payouts', { token })).body;

const standIn = (path: string, init?: RequestInit) => fetch(`${outputs().StripeApiUrl}${path}`, init);

const accountUpdated = (account: string, created: number, chargesEnabled: boolean) => ({
  id: `evt_connect_${Date.now()}_${Math.random().toString(36).slice(2)}`,
  object: 'event',
  type: 'account.updated',
  account,
  created,
  livemode: false,
  data: { object: { id: account, object: 'account', charges_enabled: chargesEnabled, payouts_enabled: chargesEnabled, details_submitted: true, requirements: { currently_due: [], past_due: [] } } },
});
const deliverConnect = (event: object, secret = outputs().StripeConnectWebhookSecret) => {
  const { payload, header } = signed(event, { secret });
  return postRaw('/api/webhooks/stripe-connect', payload, { 'content-type': 'application/json', 'stripe-signature': header });
};

describe("a creator's payment account (Stripe Connect)", () => {
  it("none -> 'Connect Stripe' -> pending with what Stripe needs -> onboarding completed -> enabled", async () => {
    const creator = await accountWithRole('creator', 'payouts');
    expect(await payouts(creator.token)).toEqual({ status: 'none', chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false, requirements: [] });

    const first = await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: body() });
    expect(first.status).toBe(200);
    const pending = await payouts(creator.token);
    expect(pending).toMatchObject({ status: 'pending', chargesEnabled: false });
    expect(pending.requirements.length).toBeGreaterThan(0);
    const accountId = (await stored(creator.id))!['accountId'] as string;
    expect(accountId).toMatch(/^acct_/);

    // The hosted onboarding page of that account; a second click: the same account, a new single-use link.
    const page = await fetch(first.body.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Complete onboarding');
    const again = await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: body() });
    expect(again.body.url).not.toBe(first.body.url);
    expect((await stored(creator.id))!['accountId']).toBe(accountId);

    expect((await standIn(`/_stand-in/accounts/${accountId}/ready`, { method: 'POST' })).status).toBe(200);
    const ready = await eventually(() => payouts(creator.token), (p) => p.status === 'enabled');
    expect(ready).toEqual({ status: 'enabled', chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true, requirements: [] });
  });

  it('one account for two first clicks at once', async () => {
    const creator = await accountWithRole('creator', 'payouts-race');
    const answers = await Promise.all([0, 1, 2].map(() => api('POST', '/api/creator/payouts/connect', { token: creator.token, body: body() })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const accountId = (await stored(creator.id))!['accountId'];
    const links = await Promise.all(answers.map((a) => fetch(a.body.url).then((res) => res.text())));
    for (const html of links) expect(html).toContain(String(accountId));
  });

  it("refuses return addresses off the app's origin (400) and another role (403), creating no account", async () => {
    const creator = await accountWithRole('creator', 'payouts-origin');
    const res = await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: { ...body(), returnUrl: 'https://evil.example/back' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(await stored(creator.id)).toBeUndefined();
    const learner = await accountWithRole('learner', 'payouts-learner');
    expect((await api('POST', '/api/creator/payouts/connect', { token: learner.token, body: body() })).status).toBe(403);
  });

  it('applies a Connect event once, never an older one over a newer, and refuses one signed with another secret', async () => {
    const creator = await accountWithRole('creator', 'payouts-events');
    await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: body() });
    const accountId = (await stored(creator.id))!['accountId'] as string;
    const now = Math.floor(Date.now() / 1000) + 60;

    // Signed with the platform endpoint's secret: not the Connect endpoint's.
    const forged = await deliverConnect(accountUpdated(accountId, now, true), outputs().StripeWebhookSecret);
    expect(forged).toEqual({ status: 400, body: { error: { code: 'BAD_SIGNATURE', message: expect.any(String) } } });
    expect((await payouts(creator.token)).status).toBe('pending');

    const newer = accountUpdated(accountId, now, true);
    expect((await deliverConnect(newer)).status).toBe(200);
    expect((await deliverConnect(newer)).status).toBe(200);
    expect((await deliverConnect(accountUpdated(accountId, now - 30, false))).status).toBe(200);
    expect(await payouts(creator.token)).toMatchObject({ status: 'enabled', chargesEnabled: true });

    // An account the platform does not hold: answered, nothing written.
    expect((await deliverConnect(accountUpdated('acct_not_ours', now, true))).status).toBe(200);
  });
});

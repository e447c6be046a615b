import { describe, expect, it } from 'vitest';
import { BadSignatureError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { ConnectEvent } from '#core/sales/ports.ts';
import { applyConnectWebhook } from '#core/sales/connect-webhook.ts';
import { connectPayouts, getPayouts } from '#core/sales/payouts.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { salesDeps } from '#test/functions/fakes/payouts.ts';

const body = { returnUrl: `${APP_ORIGIN}/dashboard/creator/profile?payouts=return`, refreshUrl: `${APP_ORIGIN}/dashboard/creator/profile?payouts=refresh` };

const deps = () => salesDeps();

const accountUpdated = (over: Partial<Extract<ConnectEvent, { kind: 'account' }>> = {}): ConnectEvent => ({
  id: 'evt_1',
  type: 'account.updated',
  created: 2_000,
  account: 'acct_1',
  kind: 'account',
  state: { chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true, requirements: [] },
  ...over,
});
const deliver = (d: ReturnType<typeof deps>, event: ConnectEvent, signature = 'good') => applyConnectWebhook(d, { rawBody: JSON.stringify(event), signature });

describe("the creator's payment account", () => {
  it('is none before the creator connects anything', async () => {
    expect(await getPayouts(deps(), 'u1')).toEqual({ status: 'none', chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false, requirements: [] });
  });

  it('connects: one Standard account for the creator, stored with what Stripe still needs, and an onboarding link back to the app', async () => {
    const d = deps();
    const { url } = await connectPayouts(d, { userId: 'u1', body });
    expect(d.connect.made).toEqual([{ accountId: 'acct_1', userId: 'u1', email: 'creator@example.com' }]);
    expect(d.connect.links).toEqual([{ accountId: 'acct_1', ...body, url }]);
    expect(await getPayouts(d, 'u1')).toEqual({
      status: 'pending',
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      requirements: ['external_account', 'tos_acceptance.date'],
    });
  });

  it('reuses the account on every later click, each time with a fresh single-use link', async () => {
    const d = deps();
    const first = await connectPayouts(d, { userId: 'u1', body });
    const again = await connectPayouts(d, { userId: 'u1', body });
    expect(again.url).not.toBe(first.url);
    expect(d.connect.calls('createConnectedAccount')).toBe(1);
    expect(d.connect.links.map((l) => l.accountId)).toEqual(['acct_1', 'acct_1']);
  });

  it('keeps the account a concurrent click stored first', async () => {
    const d = deps();
    await Promise.all([connectPayouts(d, { userId: 'u1', body }), connectPayouts(d, { userId: 'u1', body })]);
    expect(d.payouts.accounts.size).toBe(1);
    expect(d.connect.made).toHaveLength(1);
  });

  it('refuses return addresses off the app origin, creating nothing', async () => {
    const d = deps();
    await expect(connectPayouts(d, { userId: 'u1', body: { ...body, refreshUrl: 'https://evil.example/x' } })).rejects.toThrow(ValidationError);
    expect(d.connect.made).toEqual([]);
  });

  it('is 404 for a profile that does not exist', async () => {
    await expect(connectPayouts(deps(), { userId: 'ghost', body })).rejects.toThrow(NotFoundError);
  });
});

describe('the Connect webhook', () => {
  it("mirrors account.updated: the account becomes Ready, once however often it is delivered", async () => {
    const d = deps();
    await connectPayouts(d, { userId: 'u1', body });
    expect(await deliver(d, accountUpdated())).toEqual({ eventId: 'evt_1', eventType: 'account.updated', account: 'acct_1', outcome: 'applied' });
    expect((await getPayouts(d, 'u1')).status).toBe('enabled');
    expect((await deliver(d, accountUpdated())).outcome).toBe('duplicate');
  });

  it('never lets an older event undo a newer state', async () => {
    const d = deps();
    await connectPayouts(d, { userId: 'u1', body });
    await deliver(d, accountUpdated({ id: 'evt_new', created: 3_000 }));
    const old = accountUpdated({ id: 'evt_old', created: 2_500, state: { chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: true, requirements: ['external_account'] } });
    expect((await deliver(d, old)).outcome).toBe('stale');
    expect(await getPayouts(d, 'u1')).toMatchObject({ status: 'enabled', requirements: [] });
  });

  it('answers an account the platform does not hold, and other event types, without writing', async () => {
    const d = deps();
    expect((await deliver(d, accountUpdated({ account: 'acct_other' }))).outcome).toBe('unknown');
    expect((await deliver(d, { id: 'evt_2', type: 'payout.paid', created: 1, account: 'acct_1', kind: 'other' })).outcome).toBe('ignored');
    expect(d.payouts.accounts.size).toBe(0);
  });

  it('refuses a bad signature before reading anything', async () => {
    const d = deps();
    await connectPayouts(d, { userId: 'u1', body });
    await expect(deliver(d, accountUpdated(), 'forged')).rejects.toThrow(BadSignatureError);
    expect((await getPayouts(d, 'u1')).status).toBe('pending');
  });
});

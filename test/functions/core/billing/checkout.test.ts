import { describe, expect, it } from 'vitest';
import type { CheckoutBody } from '#contracts/billing.ts';
import { CHECKOUT_LIFETIME_MS, startCheckout } from '#core/billing/checkout.ts';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '#core/errors.ts';
import { storedSubscription } from '#test/functions/fakes/billing.ts';
import { fakeDeps } from '#test/functions/fakes/deps.ts';

const body = (over: Partial<CheckoutBody> = {}): CheckoutBody => ({
  planType: 'starter',
  successUrl: 'https://app.example/checkout/success',
  cancelUrl: 'https://app.example/#pricing',
  ...over,
});

const MINUTE = 60_000;

describe('starting a subscription checkout', () => {
  it('gives a creator who never subscribed a Starter checkout with the 14-day trial, payable for a short while only', async () => {
    const d = fakeDeps();
    const { url } = await startCheckout(d, { userId: 'u1', body: body() });
    const [session] = d.payments.created();
    expect(url).toBe(session!.url);
    expect(session!.input).toEqual({
      mode: 'subscription',
      customerId: 'cus_1',
      userId: 'u1',
      priceId: 'price_starter',
      trialDays: 14,
      successUrl: 'https://app.example/checkout/success',
      cancelUrl: 'https://app.example/#pricing',
      expiresAt: new Date(d.clock.now().getTime() + CHECKOUT_LIFETIME_MS),
      metadata: { userId: 'u1', planType: 'starter' },
      idempotencyKey: 'checkout:u1:id-1',
    });
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ status: 'open', sessionId: session!.id, url, expiresAt: new Date(d.clock.now().getTime() + CHECKOUT_LIFETIME_MS).toISOString() });
    expect(d.metrics.recorded).toEqual([{ metric: 'CheckoutStarted', value: 1 }]);
  });

  it("keeps the session's end inside the window Stripe accepts (30 minutes to 24 hours)", () => {
    expect(CHECKOUT_LIFETIME_MS).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(CHECKOUT_LIFETIME_MS).toBeLessThanOrEqual(24 * 60 * MINUTE);
  });

  it('gives a creator who has trialed before a Starter checkout without a trial', async () => {
    const d = fakeDeps();
    d.billing.seedSubscription(storedSubscription({ status: 'canceled', hasSubscribed: true }));
    await startCheckout(d, { userId: 'u1', body: body() });
    const [session] = d.payments.created();
    expect(session!.input).toMatchObject({ priceId: 'price_starter', customerId: 'cus_1' });
    expect(session!.input).not.toHaveProperty('trialDays');
  });

  it('still gives the trial to a creator whose earlier checkout was never paid', async () => {
    const d = fakeDeps();
    d.billing.seedSubscription(storedSubscription({ status: 'incomplete_expired', hasSubscribed: false }));
    await startCheckout(d, { userId: 'u1', body: body() });
    expect(d.payments.created()[0]!.input.trialDays).toBe(14);
  });

  it('charges Pro from the first day, on the Pro price', async () => {
    const d = fakeDeps();
    await startCheckout(d, { userId: 'u1', body: body({ planType: 'pro', priceId: 'price_pro' }) });
    const [session] = d.payments.created();
    expect(session!.input).toMatchObject({ priceId: 'price_pro', metadata: { userId: 'u1', planType: 'pro' } });
    expect(session!.input).not.toHaveProperty('trialDays');
  });

  it('hands out the same session to a second click of the same plan', async () => {
    const d = fakeDeps();
    const first = await startCheckout(d, { userId: 'u1', body: body() });
    d.clock.advance(10 * MINUTE);
    expect(await startCheckout(d, { userId: 'u1', body: body() })).toEqual(first);
    expect(d.payments.created()).toHaveLength(1);
    expect(d.metrics.total('CheckoutStarted')).toBe(1);
  });

  it('hands out the open session to a retry with the same Idempotency-Key, even with other return addresses', async () => {
    const d = fakeDeps();
    const first = await startCheckout(d, { userId: 'u1', body: body(), idempotencyKey: 'intent-1' });
    const retry = await startCheckout(d, { userId: 'u1', body: body({ cancelUrl: 'https://app.example/billing' }), idempotencyKey: 'intent-1' });
    expect(retry).toEqual(first);
    expect(d.payments.created()).toHaveLength(1);
  });

  it('answers 409 while another checkout is being prepared, calling the provider not at all', async () => {
    const d = fakeDeps();
    d.billing.seedCheckout('u1', { status: 'creating', claimId: 'other', intent: 'x', claimedAt: new Date(d.clock.now().getTime() - 10_000).toISOString() });
    await expect(startCheckout(d, { userId: 'u1', body: body() })).rejects.toThrow(ConflictError);
    expect(d.payments.created()).toEqual([]);
    expect(d.payments.customers).toEqual([]);
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ status: 'creating', claimId: 'other' });
  });

  it('carries on the claim of a retry with the same Idempotency-Key, sending the provider the very same request', async () => {
    const d = fakeDeps();
    const claimedAt = new Date(d.clock.now().getTime() - 20_000).toISOString();
    const intent = JSON.stringify(['starter', body().successUrl, body().cancelUrl]);
    d.billing.seedCheckout('u1', { status: 'creating', claimId: 'first-try', intent, idempotencyKey: 'intent-1', claimedAt });
    const { url } = await startCheckout(d, { userId: 'u1', body: body(), idempotencyKey: 'intent-1' });
    const [session] = d.payments.created();
    // The first try's key and expiry: had its call reached Stripe, Stripe answers with that session.
    expect(session!.input).toMatchObject({ idempotencyKey: 'checkout:u1:first-try', expiresAt: new Date(Date.parse(claimedAt) + CHECKOUT_LIFETIME_MS) });
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ status: 'open', claimId: 'first-try', url });
    // Another key, or the same key for another plan, still waits for that claim.
    d.billing.seedCheckout('u1', { status: 'creating', claimId: 'first-try', intent, idempotencyKey: 'intent-1', claimedAt });
    await expect(startCheckout(d, { userId: 'u1', body: body(), idempotencyKey: 'intent-2' })).rejects.toThrow(ConflictError);
    await expect(startCheckout(d, { userId: 'u1', body: body({ planType: 'pro' }), idempotencyKey: 'intent-1' })).rejects.toThrow(ConflictError);
  });

  it('takes over a claim whose request died more than a minute ago', async () => {
    const d = fakeDeps();
    d.billing.seedCheckout('u1', { status: 'creating', claimId: 'dead', intent: 'x', claimedAt: new Date(d.clock.now().getTime() - 2 * MINUTE).toISOString() });
    const { url } = await startCheckout(d, { userId: 'u1', body: body() });
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ status: 'open', claimId: 'id-1', url });
    expect(d.payments.expired).toEqual([]);
  });

  it('replaces an open session of another plan and expires it at the provider', async () => {
    const d = fakeDeps();
    await startCheckout(d, { userId: 'u1', body: body() });
    const { url } = await startCheckout(d, { userId: 'u1', body: body({ planType: 'pro' }) });
    const [starter, pro] = d.payments.created();
    expect(url).toBe(pro!.url);
    expect(starter!.status).toBe('expired');
    expect(d.payments.expired).toEqual([starter!.id]);
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ status: 'open', sessionId: pro!.id });
    expect(d.metrics.total('CheckoutStarted')).toBe(2);
  });

  it('replaces a session about to end rather than handing it out again', async () => {
    const d = fakeDeps();
    const first = await startCheckout(d, { userId: 'u1', body: body() });
    d.clock.advance(CHECKOUT_LIFETIME_MS - 4 * MINUTE);
    const second = await startCheckout(d, { userId: 'u1', body: body() });
    expect(second.url).not.toBe(first.url);
    expect(d.payments.expired).toEqual([d.payments.created()[0]!.id]);
    expect(d.payments.customers).toHaveLength(1);
  });

  it('refuses a creator who is already subscribed or on trial (409), creating nothing', async () => {
    for (const status of ['trialing', 'active']) {
      const d = fakeDeps();
      d.billing.seedSubscription(storedSubscription({ status }));
      await expect(startCheckout(d, { userId: 'u1', body: body({ planType: 'pro' }) })).rejects.toThrow(ConflictError);
      expect(d.payments.created()).toEqual([]);
      expect(await d.billing.getOpenCheckout('u1')).toBeUndefined();
    }
  });

  it('lets a creator whose payment is overdue or who cancelled start a checkout', async () => {
    for (const status of ['past_due', 'canceled']) {
      const d = fakeDeps();
      d.billing.seedSubscription(storedSubscription({ status }));
      expect(await startCheckout(d, { userId: 'u1', body: body() })).toHaveProperty('url');
    }
  });

  it("refuses a priceId that is not the plan's, before anything is claimed", async () => {
    const d = fakeDeps();
    const error = await startCheckout(d, { userId: 'u1', body: body({ priceId: 'price_pro' }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ message: "priceId is not the Starter plan's price.", details: [{ path: 'priceId' }] });
    expect(await d.billing.getOpenCheckout('u1')).toBeUndefined();
    expect(d.payments.created()).toEqual([]);
  });

  it('refuses return addresses on another origin', async () => {
    const d = fakeDeps();
    await expect(startCheckout(d, { userId: 'u1', body: body({ successUrl: 'https://app.example.evil.com/x' }) })).rejects.toThrow(ValidationError);
    await expect(startCheckout(d, { userId: 'u1', body: body({ cancelUrl: 'https://evil.example/' }) })).rejects.toThrow('cancelUrl must be on https://app.example.');
    expect(d.payments.created()).toEqual([]);
  });

  it('answers 409 when another checkout claims the slot between our read and our claim', async () => {
    const d = fakeDeps();
    d.billing.before('claimCheckout', (call) =>
      call === 1
        ? d.billing.claimCheckout({ userId: 'u1', claim: { status: 'creating', claimId: 'rival', intent: 'x', claimedAt: d.clock.now().toISOString() } })
        : undefined,
    );
    await expect(startCheckout(d, { userId: 'u1', body: body() })).rejects.toThrow(ConflictError);
    expect(d.payments.created()).toEqual([]);
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ claimId: 'rival' });
  });

  it('expires its own session and answers 409 when its claim was taken over while the provider was busy', async () => {
    const d = fakeDeps();
    d.billing.before('openCheckout', (call) =>
      call === 1
        ? d.billing.claimCheckout({ userId: 'u1', replacing: 'id-1', claim: { status: 'creating', claimId: 'rival', intent: 'x', claimedAt: d.clock.now().toISOString() } })
        : undefined,
    );
    await expect(startCheckout(d, { userId: 'u1', body: body() })).rejects.toThrow(ConflictError);
    const [session] = d.payments.created();
    expect(session!.status).toBe('expired');
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ claimId: 'rival' });
    expect(d.metrics.recorded).toEqual([]);
  });

  it('frees the slot when the provider fails, so the next click can try again', async () => {
    const d = fakeDeps();
    d.payments.before('createCheckoutSession', (call) => {
      if (call === 1) throw new UpstreamError('The payment provider could not start the checkout. Please try again.');
    });
    await expect(startCheckout(d, { userId: 'u1', body: body() })).rejects.toThrow(UpstreamError);
    expect(await d.billing.getOpenCheckout('u1')).toBeUndefined();
    expect(d.metrics.recorded).toEqual([]);
    expect(await startCheckout(d, { userId: 'u1', body: body() })).toHaveProperty('url');
  });

  it('is NOT_FOUND for a caller without a profile, and leaves the slot free', async () => {
    const d = fakeDeps({ users: [] });
    await expect(startCheckout(d, { userId: 'u1', body: body() })).rejects.toThrow(NotFoundError);
    expect(await d.billing.getOpenCheckout('u1')).toBeUndefined();
  });

  it('uses the customer the creator already has', async () => {
    const d = fakeDeps();
    await d.billing.saveCustomer('u1', 'cus_existing');
    await startCheckout(d, { userId: 'u1', body: body() });
    expect(d.payments.created()[0]!.input.customerId).toBe('cus_existing');
    expect(d.payments.customers).toEqual([]);
  });
});

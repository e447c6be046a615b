import { describe, expect, it } from 'vitest';
import { purchaseCredits } from '#core/credits/credits.ts';
import { ForbiddenError, UpstreamError, ValidationError } from '#core/errors.ts';
import { creditAccount } from '#test/functions/fakes/credits.ts';
import { fakeDeps } from '#test/functions/fakes/deps.ts';

const body = { creditAmount: 100 as const, successUrl: 'https://app.example/dashboard?topup=1', cancelUrl: 'https://app.example/dashboard' };

const subscriber = () => {
  const d = fakeDeps();
  d.credits.open(creditAccount({ creditsRemaining: 20 }));
  return d;
};

describe('buying a top-up of 100 credits', () => {
  it('opens a payment checkout on the credits price and records the purchase it will grant, granting nothing yet', async () => {
    const d = subscriber();
    const { url } = await purchaseCredits(d, { userId: 'u1', body });
    const [session] = d.payments.created();
    expect(url).toBe(session!.url);
    expect(session!.input).toEqual({
      mode: 'payment', customerId: 'cus_1', userId: 'u1', priceId: 'price_credits', successUrl: body.successUrl, cancelUrl: body.cancelUrl,
      metadata: { userId: 'u1', purpose: 'credits' }, idempotencyKey: 'credits:u1:id-1',
    });
    expect(d.billing.purchase(session!.id)).toEqual({ userId: 'u1', credits: 100, pricePence: 500, createdAt: '2026-11-21T12:00:00.000Z', status: 'pending' });
    expect((await d.credits.getAccount('u1'))?.creditsRemaining).toBe(20);
  });

  it('gives a retried click with the same Idempotency-Key the same session and the same record', async () => {
    const d = subscriber();
    const first = await purchaseCredits(d, { userId: 'u1', body, idempotencyKey: 'k1' });
    d.clock.advance(1_000);
    expect(await purchaseCredits(d, { userId: 'u1', body, idempotencyKey: 'k1' })).toEqual(first);
    expect(d.payments.created()).toHaveLength(1);
    expect(d.billing.purchase(d.payments.created()[0]!.id)).toMatchObject({ createdAt: '2026-11-21T12:00:00.000Z' });
  });

  it('is refused (403) to a creator without a credit account, before any payment is prepared', async () => {
    const d = fakeDeps();
    await expect(purchaseCredits(d, { userId: 'u1', body })).rejects.toThrow(ForbiddenError);
    expect(d.payments.customers).toEqual([]);
  });

  it('refuses return addresses on another origin', async () => {
    const d = subscriber();
    await expect(purchaseCredits(d, { userId: 'u1', body: { ...body, successUrl: 'https://evil.example/' } })).rejects.toThrow(ValidationError);
    expect(d.payments.created()).toEqual([]);
  });

  it('records no purchase when the provider fails', async () => {
    const d = subscriber();
    d.payments.before('createCheckoutSession', () => {
      throw new UpstreamError('The payment provider could not start the checkout. Please try again.');
    });
    await expect(purchaseCredits(d, { userId: 'u1', body })).rejects.toThrow(UpstreamError);
    expect(d.billing.calls('savePendingPurchase')).toBe(0);
  });
});

import { planFeatures } from '#contracts/entitlements.ts';
import { describe, expect, it } from 'vitest';
import { getSubscription } from '#core/billing/get-subscription.ts';
import { storedSubscription } from '#test/functions/fakes/billing.ts';
import { fakeDeps } from '#test/functions/fakes/deps.ts';

describe('reading my subscription', () => {
  it('is "none" with the trial available for a creator who never subscribed', async () => {
    expect(await getSubscription(fakeDeps(), 'u1')).toMatchObject({ status: 'none', subscribed: false, tier: null, trialAvailable: true });
  });

  it('shows the days of trial left, counted from now', async () => {
    const d = fakeDeps();
    d.billing.seedSubscription(storedSubscription({ trialEnd: '2026-12-05T12:00:00.000Z' }));
    expect(await getSubscription(d, 'u1')).toMatchObject({ status: 'trialing', subscribed: true, tier: 'starter', onTrial: true, trialDaysLeft: 14, trialAvailable: false });
    d.clock.advance(10 * 86_400_000);
    expect(await getSubscription(d, 'u1')).toMatchObject({ trialDaysLeft: 4 });
  });

  it('shows a cancelled plan ending with its period', async () => {
    const d = fakeDeps();
    d.billing.seedSubscription(storedSubscription({ status: 'active', tier: 'pro', trialEnd: null, cancelAtPeriodEnd: true, currentPeriodEnd: '2026-12-21T12:00:00.000Z' }));
    expect(await getSubscription(d, 'u1')).toEqual({
      status: 'active', subscribed: true, tier: 'pro', trialEnd: null, onTrial: false, trialDaysLeft: 0,
      currentPeriodEnd: '2026-12-21T12:00:00.000Z', cancelAtPeriodEnd: true, trialAvailable: false,
      features: [...planFeatures.pro], limits: { teamLicenseSeats: null },
    });
  });
});

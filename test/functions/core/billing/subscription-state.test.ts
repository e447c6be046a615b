import { describe, expect, it } from 'vitest';
import { contractStatus, counterDeltas, isNewer, isSubscribed, reachedPlan, statusRank, subscriptionView, trialDaysLeft } from '#core/billing/subscription-state.ts';
import { storedSubscription as sub } from '#test/functions/fakes/billing.ts';

const now = new Date('2026-11-21T12:00:00.000Z');

describe('subscription state', () => {
  it('rounds trial days left up and never below 0', () => {
    expect(trialDaysLeft('2026-12-05T12:00:00.000Z', now)).toBe(14);
    expect(trialDaysLeft('2026-11-21T12:00:01.000Z', now)).toBe(1);
    expect(trialDaysLeft('2026-11-20T12:00:00.000Z', now)).toBe(0);
    expect(trialDaysLeft(null, now)).toBe(0);
  });

  it('is "none", with the trial still available, without a subscription', () => {
    expect(subscriptionView(undefined, now)).toEqual({
      status: 'none', subscribed: false, tier: null, trialEnd: null, onTrial: false, trialDaysLeft: 0, currentPeriodEnd: null, cancelAtPeriodEnd: false, trialAvailable: true,
      features: [], limits: { teamLicenseSeats: 0 },
    });
  });

  it('gives a trial Starter\'s features, keeps a past-due plan, and gives nothing once the subscription ended', () => {
    expect(subscriptionView(sub({ status: 'trialing', tier: 'starter', trialEnd: '2026-11-22T00:00:00.000Z' }), now)).toMatchObject({ features: ['courses', 'sales', 'teamLicenses'], limits: { teamLicenseSeats: 10 } });
    expect(subscriptionView(sub({ status: 'past_due', tier: 'pro', trialEnd: null }), now).features).toContain('affiliates');
    expect(subscriptionView(sub({ status: 'past_due', tier: 'pro', trialEnd: null }), now).limits).toEqual({ teamLicenseSeats: null });
    expect(subscriptionView(sub({ status: 'canceled', tier: 'pro', trialEnd: null }), now)).toMatchObject({ features: [], limits: { teamLicenseSeats: 0 } });
  });

  it('is on trial while trialEnd is in the future, with no second trial available', () => {
    expect(subscriptionView(sub({ trialEnd: '2026-11-22T00:00:00.000Z' }), now)).toMatchObject({ status: 'trialing', subscribed: true, onTrial: true, trialDaysLeft: 1, trialAvailable: false });
  });

  it('offers the trial to a creator whose only checkout never got paid', () => {
    expect(subscriptionView(sub({ status: 'incomplete_expired', hasSubscribed: false, trialEnd: null }), now)).toMatchObject({ status: 'canceled', subscribed: false, trialAvailable: true });
  });

  it("maps Stripe's other statuses onto the contract's", () => {
    expect(['unpaid', 'incomplete', 'incomplete_expired', 'paused', 'weird', undefined].map(contractStatus)).toEqual(['past_due', 'past_due', 'canceled', 'canceled', 'none', 'none']);
  });

  it('counts trialing, active, past due, unpaid, cancelled and paused as having reached a plan, never an unpaid first checkout', () => {
    expect(['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused'].every(reachedPlan)).toBe(true);
    expect(['incomplete', 'incomplete_expired'].some(reachedPlan)).toBe(false);
  });

  it('gives access to the plan on trial or paid up only', () => {
    expect((['trialing', 'active', 'past_due', 'canceled', 'none'] as const).map(isSubscribed)).toEqual([true, true, false, false, false]);
  });

  it('ignores older events and orders same-second events by lifecycle stage', () => {
    expect(['incomplete', 'trialing', 'active', 'unpaid', 'canceled'].map(statusRank)).toEqual([3, 1, 2, 3, 4]);
    const before = sub({ lastEventAt: 100, lastEventRank: 2 });
    expect(isNewer(before, 99, 4)).toBe(false);
    expect(isNewer(before, 100, 1)).toBe(false);
    expect(isNewer(before, 100, 4)).toBe(true);
    expect(isNewer(before, 101, 0)).toBe(true);
    expect(isNewer(undefined, 0, 0)).toBe(true);
  });

  it('moves the counters from the old buckets to the new ones', () => {
    expect(counterDeltas(undefined, sub())).toEqual({ subs_trialing: 1, subs_tier_starter: 1 });
    expect(counterDeltas(sub(), sub({ status: 'active' }))).toEqual({ subs_trialing: -1, subs_active: 1, subs_paying_starter: 1 });
    expect(counterDeltas(sub({ status: 'active' }), sub({ status: 'canceled' }))).toEqual({ subs_active: -1, subs_tier_starter: -1, subs_paying_starter: -1, subs_canceled: 1 });
    expect(counterDeltas(sub({ status: 'active', tier: 'starter' }), sub({ status: 'active', tier: 'pro' }))).toEqual({
      subs_tier_starter: -1,
      subs_tier_pro: 1,
      subs_paying_starter: -1,
      subs_paying_pro: 1,
    });
    expect(counterDeltas(sub({ status: 'active' }), sub({ status: 'active', cancelAtPeriodEnd: true }))).toEqual({});
    expect(counterDeltas(undefined, sub({ status: 'incomplete_gibberish' }))).toEqual({});
  });

  it('counts a subscription in the MRR only while it is paid up, not on trial nor after a failed payment', () => {
    expect(counterDeltas(undefined, sub({ status: 'trialing' }))).not.toHaveProperty('subs_paying_starter');
    expect(counterDeltas(sub({ status: 'active' }), sub({ status: 'past_due' }))).toMatchObject({ subs_paying_starter: -1 });
    expect(counterDeltas(sub({ status: 'past_due' }), sub({ status: 'active' }))).toMatchObject({ subs_paying_starter: 1 });
  });
});

import { vi } from 'vitest';
import type { SubscriptionResponse } from '@contracts/billing.ts';
import { planFeatures, planLimits } from '@contracts/entitlements.ts';

/** jsdom's location cannot be spied on; the hooks only need origin and assign. */
export function stubLocation() {
  const assign = vi.fn<(url: string) => void>();
  vi.stubGlobal('location', { origin: 'http://app.test', assign, hash: '', href: 'http://app.test/dashboard/creator' });
  return assign;
}

/**
 * GET /api/me/subscription answers: no subscription (the trial still on offer), a Starter trial with 14 days left,
 * and a creator who has had their trial (canceled, then back on Starter with no trial: active and billed).
 */
export const noSubscription: SubscriptionResponse = {
  status: 'none',
  subscribed: false,
  tier: null,
  trialEnd: null,
  onTrial: false,
  trialDaysLeft: 0,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  trialAvailable: true,
  features: [],
  limits: planLimits.none,
};

export const starterTrial: SubscriptionResponse = {
  status: 'trialing',
  subscribed: true,
  tier: 'starter',
  trialEnd: '2026-12-05T12:00:00.000Z',
  onTrial: true,
  trialDaysLeft: 14,
  currentPeriodEnd: '2026-12-05T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  trialAvailable: false,
  features: [...planFeatures.starter],
  limits: planLimits.starter,
};

export const starterCanceled: SubscriptionResponse = {
  ...starterTrial,
  status: 'canceled',
  subscribed: false,
  trialEnd: null,
  onTrial: false,
  trialDaysLeft: 0,
  currentPeriodEnd: null,
  features: [],
  limits: planLimits.none,
};

export const starterPaidNoTrial: SubscriptionResponse = {
  ...starterTrial,
  status: 'active',
  trialEnd: null,
  onTrial: false,
  trialDaysLeft: 0,
  currentPeriodEnd: '2027-01-05T12:00:00.000Z',
};

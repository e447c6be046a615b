import type { SubscriptionResponse } from '@contracts/billing.ts';
import { featureKeys } from '@contracts/entitlements.ts';
import type { AdminSupportRequest, SupportRequest } from '@contracts/support.ts';

export const request = (id: string, changes: Partial<SupportRequest> = {}): SupportRequest => ({
  id,
  subject: `Subject ${id}`,
  body: `Message ${id}`,
  status: 'open',
  priority: 'standard',
  createdAt: '2026-11-20T10:00:00.000Z',
  closedAt: null,
  replies: [],
  ...changes,
});

export const inboxRequest = (id: string, changes: Partial<AdminSupportRequest> = {}): AdminSupportRequest => ({
  ...request(id),
  creatorId: `creator-${id}`,
  creatorEmail: `${id}@example.com`,
  ...changes,
});

export const plan = (tier: 'starter' | 'pro' | null): SubscriptionResponse => ({
  status: tier ? 'active' : 'none',
  subscribed: tier !== null,
  tier,
  trialEnd: null,
  onTrial: false,
  trialDaysLeft: 0,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  trialAvailable: tier === null,
  features: tier === 'pro' ? [...featureKeys] : tier === 'starter' ? ['courses', 'sales', 'teamLicenses'] : [],
  limits: { teamLicenseSeats: tier === 'pro' ? null : tier === 'starter' ? 10 : 0 },
});

import { describe, expect, it } from 'vitest';
import type { PlatformActivity } from '#contracts/admin.ts';
import { adminStats } from '#contracts/admin.ts';
import type { StoredSubscription } from '#core/ports.ts';
import { signUpActivity, subscriptionActivity } from '#core/admin/platform-activity.ts';
import { platformStats, type PlatformCounters, type PlatformStatsReader } from '#core/admin/platform-stats.ts';
import type { WeekCounters } from '#core/admin/platform-figures.ts';
import { testClock } from '../../fakes/clock.ts';

const reader = (counters: PlatformCounters, weeks: WeekCounters[] = [], activity: PlatformActivity[] = []) => {
  const calls: unknown[] = [];
  const stats: PlatformStatsReader = {
    read: async (input) => {
      calls.push(input);
      return { counters, weeks, activity };
    },
  };
  return { stats, calls };
};

describe('platformStats', () => {
  it('answers the figures from the counters: users, subscriptions, estimate, MRR and breakdown', async () => {
    const { stats } = reader({
      usersTotal: 10,
      users_admin: 1,
      users_creator: 5,
      users_leader: 1,
      users_learner: 3,
      users_disabled: 2,
      subs_trialing: 2,
      subs_active: 3,
      subs_canceled: 4,
      subs_tier_starter: 4,
      subs_tier_pro: 1,
      subs_paying_starter: 2,
      subs_paying_pro: 1,
      courses_published: 7,
      courses_total: 9,
      enrollments_active: 31,
      enrollments_completed: 4,
      affiliates_total: 3,
      affiliate_clicks: 40,
      affiliate_sales: 4,
      commissions_total: 2500,
      commissions_pending: 1000,
      commissions_approved: 500,
      commissions_paid: 1000,
    });
    const answer = await platformStats({ stats, clock: testClock('2026-11-25T10:00:00.000Z') });
    expect(adminStats.parse(answer)).toEqual(answer);
    expect(answer.users).toEqual({ total: 10, admins: 1, creators: 5, leaders: 1, learners: 3, disabled: 2 });
    expect(answer.subscriptions).toEqual({ subscribed: 5, onTrial: 2, starter: 4, pro: 1 });
    expect(answer.revenue).toEqual({
      currency: 'GBP',
      estimatedMonthly: 5 * 2900,
      mrr: 2 * 2800 + 6700,
      breakdown: { creatorSubscriptions: 10_150, courseLicenses: 3625, platformFees: 725 },
    });
    expect(answer.courses).toEqual({ published: 7, total: 9, enrollments: 31, completed: 4 });
    expect(answer.certificates).toEqual({ issued: 0 });
    expect(answer.affiliates).toEqual({ affiliates: 3, clicks: 40, sales: 4, commissionsTotal: 2500, pending: 1000, approved: 500, paidOut: 1000 });
  });

  it('shows zeros on an empty platform, and twelve weeks ending with this one', async () => {
    const { stats, calls } = reader({});
    const answer = await platformStats({ stats, clock: testClock('2026-11-25T10:00:00.000Z') });
    expect(answer.users.total).toBe(0);
    expect(answer.revenue.estimatedMonthly).toBe(0);
    expect(answer.trends.weeks).toHaveLength(12);
    expect(answer.trends.weeks.at(-1)).toEqual({ weekStart: '2026-11-23', signUps: 0, mrr: 0 });
    expect(calls).toEqual([{ weekStarts: answer.trends.weeks.map((w) => w.weekStart), activityLimit: 10 }]);
  });

  it('leaves out activity older than 30 days that DynamoDB has not removed yet', async () => {
    const recent: PlatformActivity = { kind: 'sign-up', text: 'New creator: a@example.com', at: '2026-11-24T10:00:00.000Z' };
    const old: PlatformActivity = { kind: 'sign-up', text: 'New creator: b@example.com', at: '2026-10-01T10:00:00.000Z' };
    const { stats } = reader({}, [], [recent, old]);
    expect((await platformStats({ stats, clock: testClock('2026-11-25T10:00:00.000Z') })).recentActivity).toEqual([recent]);
  });
});

describe('the activity lines', () => {
  const sub = (over: Partial<StoredSubscription> = {}): StoredSubscription => ({
    userId: 'u1',
    subscriptionId: 'sub_1',
    customerId: 'cus_1',
    status: 'trialing',
    tier: 'starter',
    trialEnd: null,
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    lastEventAt: 1,
    lastEventRank: 1,
    updatedAt: '2026-11-24T10:00:00.000Z',
    hasSubscribed: true,
    ...over,
  });

  it('names the new account and its role', () => {
    expect(signUpActivity({ id: 'u1', email: 'maya@example.com', role: 'leader', createdAt: '2026-11-24T10:00:00.000Z' })).toEqual({
      kind: 'sign-up',
      text: 'New group leader: maya@example.com',
      at: '2026-11-24T10:00:00.000Z',
    });
  });

  it('says what changed in a subscription, and nothing for a renewal', () => {
    const text = (before: StoredSubscription | undefined, after: StoredSubscription) => subscriptionActivity(before, after)?.text;
    expect(text(undefined, sub())).toBe('A creator started a Starter trial');
    expect(text(sub(), sub({ status: 'active' }))).toBe('A creator subscribed to Starter');
    expect(text(sub({ status: 'active' }), sub({ status: 'active', tier: 'pro' }))).toBe('A creator moved from Starter to Pro');
    expect(text(sub({ status: 'active' }), sub({ status: 'past_due' }))).toBe('A Starter payment failed');
    expect(text(sub({ status: 'active', tier: 'pro' }), sub({ status: 'canceled', tier: 'pro' }))).toBe('A creator cancelled Pro');
    expect(text(sub({ status: 'active' }), sub({ status: 'active', currentPeriodEnd: '2027-01-01T00:00:00.000Z' }))).toBeUndefined();
    expect(text(undefined, sub({ status: 'incomplete_expired', tier: null }))).toBe('A creator cancelled a plan');
    expect(text(undefined, sub({ status: 'weird' }))).toBeUndefined();
  });
});

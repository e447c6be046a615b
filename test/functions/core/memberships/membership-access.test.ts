import { describe, expect, it } from 'vitest';
import { courseAccess, membershipSource } from '#core/access/access.ts';
import type { MembershipEvent, StoredMembership } from '#core/ports.ts';
import type { ConnectEvent } from '#core/sales/ports.ts';
import { applyConnectWebhook } from '#core/sales/connect-webhook.ts';
import { NOW } from '#test/functions/fakes/clock.ts';
import { pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

/**
 * A membership as a source of access (issue 34 points 2 and 4): its Connect events in any order and repeated, the
 * learner's enrolments following the subscription's stored state, and the access module's answer per source and
 * where sources overlap.
 */
const T0 = Date.parse(NOW) / 1000;
const HOUR = 3600;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

const world = () => {
  const d = salesDeps({ courses: [pricedCourse({ id: 'c1', status: 'published' }), pricedCourse({ id: 'c2', status: 'published' })] });
  const membership: StoredMembership = {
    id: 'm1', creatorId: 'u1', title: 'All my courses', description: '', interval: 'month', priceAmount: 1500,
    courseIds: 'all', active: true, createdAt: NOW, updatedAt: NOW,
  };
  d.memberships.memberships.set(membership.id, membership);
  return d;
};
type World = ReturnType<typeof world>;

let n = 0;
const deliver = (d: World, event: MembershipEvent) => applyConnectWebhook(d, { rawBody: JSON.stringify(event as ConnectEvent), signature: 'good' });
const bought = (subscriptionId = 'sub_1', email = 'ann@example.com'): MembershipEvent => ({
  id: `evt_${++n}`, type: 'checkout.session.completed', created: T0, account: 'acct_1', kind: 'membership-checkout',
  membershipId: 'm1', subscriptionId, customerId: 'cus_1', email,
});
const subscription = (
  status: 'active' | 'past_due' | 'canceled' | 'unpaid',
  created: number,
  over: { subscriptionId?: string; periodEnd?: number; type?: string } = {},
): MembershipEvent => ({
  id: `evt_${++n}`, type: over.type ?? (status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated'), created, account: 'acct_1', kind: 'subscription',
  membershipId: 'm1', subscriptionId: over.subscriptionId ?? 'sub_1',
  state: { status, currentPeriodEnd: iso(over.periodEnd ?? T0 + 30 * 24 * HOUR), cancelAtPeriodEnd: false, customerId: 'cus_1' },
});
const learnerOf = async (d: World) => (await d.users.getUserIdByEmail('ann@example.com'))!;
const access = async (d: World, courseId = 'c1') => courseAccess(d, await learnerOf(d), courseId);

describe('a membership as a source of access', () => {
  it('a new buyer gets one learner account and one invitation, and every published course of the creator while active', async () => {
    const d = world();
    await deliver(d, subscription('active', T0, { type: 'customer.subscription.created' }));
    const purchase = bought();
    await deliver(d, purchase);
    await deliver(d, purchase);
    expect(d.mailer.sent.filter((mail) => mail.to === 'ann@example.com')).toHaveLength(1);
    expect(await access(d, 'c1')).toMatchObject({ open: true, source: 'membership' });
    expect(await access(d, 'c2')).toMatchObject({ open: true, source: 'membership' });
  });

  it('past due keeps access until the paid period ends, then not; cancelled ends it (the enrolment kept, removed); a new subscription restores it', async () => {
    const d = world();
    await deliver(d, bought());
    await deliver(d, subscription('past_due', T0 + 1, { periodEnd: T0 + HOUR }));
    expect(await access(d)).toMatchObject({ open: true, source: 'membership' });
    d.clock.set(iso(T0 + 2 * HOUR));
    expect(await access(d)).toEqual({ open: false, reason: 'none' });

    await deliver(d, subscription('canceled', T0 + 3 * HOUR));
    expect(await access(d)).toEqual({ open: false, reason: 'none' });
    // The enrolment is removed, not deleted: its progress waits for a resubscription.
    expect((await d.enrollments.get('c1', await learnerOf(d)))?.status).toBe('removed');

    await deliver(d, bought('sub_2'));
    await deliver(d, subscription('active', T0 + 4 * HOUR, { subscriptionId: 'sub_2' }));
    expect(await access(d)).toMatchObject({ open: true, source: 'membership', enrollment: { sources: [membershipSource('m1', 'sub_2')] } });
  });

  it('applies events in any order and once: an older event after a newer one changes nothing, and a deleted subscription never comes back', async () => {
    const d = world();
    await deliver(d, bought());
    await deliver(d, subscription('canceled', T0 + 20));
    const late = await deliver(d, subscription('active', T0 + 10));
    expect(late.outcome).toBe('stale');
    const evenLater = await deliver(d, subscription('active', T0 + 30));
    expect(evenLater.outcome).toBe('stale');
    expect((await d.memberships.member('m1', 'sub_1'))?.status).toBe('canceled');
    expect(await access(d)).toEqual({ open: false, reason: 'none' });
  });

  it('a course held by another source keeps access when the membership ends', async () => {
    const d = world();
    await deliver(d, bought());
    await deliver(d, subscription('active', T0 + 1));
    const learnerId = await learnerOf(d);
    // The learner also bought c1 alone.
    await d.enrollments.enroll({ courseId: 'c1', learnerId, creatorId: 'u1', learnerEmail: 'ann@example.com', learnerJoinedAt: NOW, courseTitle: 'c1', enrolledAt: NOW, licenseId: undefined, source: 'own' });
    await deliver(d, subscription('unpaid', T0 + 2));
    expect(await access(d, 'c2')).toEqual({ open: false, reason: 'none' });
    expect((await access(d, 'c1')).open).toBe(true);
  });
});

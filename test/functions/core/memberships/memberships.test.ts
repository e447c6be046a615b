import { describe, expect, it } from 'vitest';
import { courseAccess } from '#core/access/access.ts';
import { mayHaveCertificate } from '#core/certificates/access.ts';
import { ConflictError, NotFoundError, PlanRequiredError, ValidationError } from '#core/errors.ts';
import { enrolMembersOnPublish } from '#core/memberships/course-published.ts';
import {
  createMembership,
  deleteMembership,
  DELETED_MEMBERSHIP_TITLE,
  learnerMemberships,
  listMembers,
  MEMBERSHIP_NOT_FOUND,
  publicMembership,
  updateMembership,
} from '#core/memberships/memberships.ts';
import type { MembershipEvent, StoredMember } from '#core/ports.ts';
import type { ConnectEvent } from '#core/sales/ports.ts';
import { applyConnectWebhook } from '#core/sales/connect-webhook.ts';
import { NOW } from '#test/functions/fakes/clock.ts';
import { pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

/**
 * Memberships (issue 34 point 2): the creator's rules (Pro, their own published courses or 'all', 20 at most, another
 * creator's is 404), the members list, the public page's seller, the learner's memberships, a course published later
 * reaching 'all' members at once, and the events of a membership since deleted.
 */
const T0 = Date.parse(NOW) / 1000;
const HOUR = 3600;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

const world = (plans: Record<string, 'pro' | 'starter' | 'none'> = {}) =>
  salesDeps({
    courses: [pricedCourse({ id: 'c1', status: 'published' }), pricedCourse({ id: 'c2', status: 'published', title: 'Stocks' }), pricedCourse({ id: 'draft', status: 'draft' })],
    plans,
  });
type World = ReturnType<typeof world>;
const body = (over: Record<string, unknown> = {}) => ({ title: 'Kitchen club', interval: 'month' as const, priceAmount: 1200, courseIds: 'all' as const, ...over });

let n = 0;
const deliver = (d: World, event: MembershipEvent) => applyConnectWebhook(d, { rawBody: JSON.stringify(event as ConnectEvent), signature: 'good' });
const bought = (membershipId: string, subscriptionId: string, email = 'ann@example.com'): MembershipEvent => ({
  id: `evt_${++n}`, type: 'checkout.session.completed', created: T0, account: 'acct_1', kind: 'membership-checkout', membershipId, subscriptionId, customerId: 'cus_1', email,
});
const state = (membershipId: string, subscriptionId: string, status: StoredMember['status'], created: number, cancelAtPeriodEnd = false): MembershipEvent => ({
  id: `evt_${++n}`, type: status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated', created, account: 'acct_1', kind: 'subscription',
  membershipId, subscriptionId, state: { status, currentPeriodEnd: iso(T0 + 30 * 24 * HOUR), cancelAtPeriodEnd, customerId: 'cus_1' },
});
const subscribe = async (d: World, membershipId: string, subscriptionId: string, email = 'ann@example.com') => {
  await deliver(d, bought(membershipId, subscriptionId, email));
  await deliver(d, state(membershipId, subscriptionId, 'active', T0 + 1));
  return (await d.users.getUserIdByEmail(email))!;
};

describe("a creator's memberships", () => {
  it('are Pro only: a Starter creator is refused with the reason', async () => {
    const d = world({ u1: 'starter' });
    await expect(createMembership(d, { creatorId: 'u1', body: body() })).rejects.toBeInstanceOf(PlanRequiredError);
    expect(await d.memberships.listByCreator('u1')).toEqual([]);
  });

  it("give the creator's own published courses, named or 'all': a draft or another creator's course is refused by name", async () => {
    const d = world();
    const named = await createMembership(d, { creatorId: 'u1', body: body({ courseIds: ['c1', 'c2'] }) });
    expect(named).toMatchObject({ courseIds: ['c1', 'c2'], interval: 'month', priceAmount: 1200, active: true, currency: 'gbp' });
    expect((await createMembership(d, { creatorId: 'u1', body: body({ interval: 'year' }) })).courseIds).toBe('all');
    const refused = createMembership(d, { creatorId: 'u1', body: body({ courseIds: ['c1', 'draft'] }) });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow(/draft/);
  });

  it('are at most 20 a creator', async () => {
    const d = world();
    for (let i = 0; i < 20; i++) await createMembership(d, { creatorId: 'u1', body: body({ title: `Club ${i}` }) });
    await expect(createMembership(d, { creatorId: 'u1', body: body() })).rejects.toBeInstanceOf(ConflictError);
  });

  it("change and delete as their creator's only: another creator's is not found", async () => {
    const d = world();
    const made = await createMembership(d, { creatorId: 'u1', body: body() });
    await expect(updateMembership(d, { creatorId: 'u2', membershipId: made.id, body: { title: 'Taken' } })).rejects.toThrow(new NotFoundError(MEMBERSHIP_NOT_FOUND));
    await expect(deleteMembership(d, { creatorId: 'u2', membershipId: made.id })).rejects.toThrow(new NotFoundError(MEMBERSHIP_NOT_FOUND));
    expect(await updateMembership(d, { creatorId: 'u1', membershipId: made.id, body: { title: 'Kitchen society', active: false } })).toMatchObject({ title: 'Kitchen society', active: false });
    await deleteMembership(d, { creatorId: 'u1', membershipId: made.id });
    expect(await d.memberships.get(made.id)).toBeUndefined();
  });
});

describe('the members list', () => {
  it("shows each subscription's email, status, period end and cancelling, a page at a time, to its creator only", async () => {
    const d = world();
    const { id } = await createMembership(d, { creatorId: 'u1', body: body() });
    await subscribe(d, id, 'sub_1', 'ann@example.com');
    await subscribe(d, id, 'sub_2', 'bob@example.com');
    await deliver(d, state(id, 'sub_2', 'active', T0 + 2, true));
    const first = await listMembers(d, { creatorId: 'u1', membershipId: id, limit: 1 });
    expect(first.items).toEqual([{ email: 'ann@example.com', status: 'active', currentPeriodEnd: iso(T0 + 30 * 24 * HOUR), cancelAtPeriodEnd: false }]);
    const second = await listMembers(d, { creatorId: 'u1', membershipId: id, cursor: first.nextCursor!, limit: 1 });
    expect(second).toEqual({
      items: [{ email: 'bob@example.com', status: 'active', currentPeriodEnd: iso(T0 + 30 * 24 * HOUR), cancelAtPeriodEnd: true }],
      nextCursor: null,
      // Over every subscription, whatever the page: two paying at £12 a month.
      figures: { paying: 2, mrrAmount: 2400, endedLast30Days: 0 },
    });
    expect(first.figures).toEqual(second.figures);
    await expect(listMembers(d, { creatorId: 'u2', membershipId: id, limit: 10 })).rejects.toThrow(new NotFoundError(MEMBERSHIP_NOT_FOUND));
  });
});

describe("the members' figures", () => {
  it('count paying subscriptions (past due too) at a twelfth of a yearly price, and the ones that ended in the last 30 days', async () => {
    const d = world();
    const { id } = await createMembership(d, { creatorId: 'u1', body: body({ interval: 'year', priceAmount: 9_900 }) });
    await subscribe(d, id, 'sub_1', 'ann@example.com');
    await subscribe(d, id, 'sub_2', 'bob@example.com');
    await subscribe(d, id, 'sub_3', 'cat@example.com');
    await deliver(d, state(id, 'sub_2', 'past_due', T0 + 2));
    await deliver(d, state(id, 'sub_3', 'canceled', T0 + 3));
    const { figures } = await listMembers(d, { creatorId: 'u1', membershipId: id, limit: 1 });
    expect(figures).toEqual({ paying: 2, mrrAmount: 2 * 825, endedLast30Days: 1 });
  });
});

describe('the public membership page', () => {
  it('names its seller and its courses now, and takes no members once the creator is off Pro', async () => {
    const d = world();
    const { id } = await createMembership(d, { creatorId: 'u1', body: body() });
    const seller = async () => ({ creatorName: 'Jane Cooks', creatorSlug: 'jane-cooks', creatorAvatarUrl: null, onSale: true, branding: null });
    const page = await publicMembership({ ...d, seller }, id);
    expect(page).toMatchObject({ id, allCourses: true, courses: [{ id: 'c1' }, { id: 'c2' }], creatorName: 'Jane Cooks', creatorSlug: 'jane-cooks', onSale: true });
    d.setPlan('u1', 'starter');
    expect((await publicMembership({ ...d, seller }, id)).onSale).toBe(false);
  });
});

describe("the learner's memberships", () => {
  it('lists the memberships held now, not one whose subscription ended, and one since deleted under its own words', async () => {
    const d = world();
    const kept = await createMembership(d, { creatorId: 'u1', body: body({ title: 'Kitchen club' }) });
    const ended = await createMembership(d, { creatorId: 'u1', body: body({ title: 'Old club', courseIds: ['c2'] }) });
    const learnerId = await subscribe(d, kept.id, 'sub_1');
    await subscribe(d, ended.id, 'sub_2');
    await deliver(d, state(ended.id, 'sub_2', 'canceled', T0 + 5));
    expect((await learnerMemberships(d, learnerId)).items).toEqual([
      { membershipId: kept.id, title: 'Kitchen club', interval: 'month', priceAmount: 1200, status: 'active', currentPeriodEnd: iso(T0 + 30 * 24 * HOUR), cancelAtPeriodEnd: false },
    ]);
    await deleteMembership(d, { creatorId: 'u1', membershipId: kept.id });
    expect((await learnerMemberships(d, learnerId)).items).toMatchObject([{ membershipId: kept.id, title: DELETED_MEMBERSHIP_TITLE, interval: null, priceAmount: null }]);
    expect((await learnerMemberships(d, 'someone-else')).items).toEqual([]);
  });
});

describe('a course published after members subscribed', () => {
  it("reaches an 'all' membership's live members at once (not an ended one's), once however often the run repeats", async () => {
    const d = world();
    const all = await createMembership(d, { creatorId: 'u1', body: body() });
    const ann = await subscribe(d, all.id, 'sub_1', 'ann@example.com');
    const bob = await subscribe(d, all.id, 'sub_2', 'bob@example.com');
    await deliver(d, state(all.id, 'sub_2', 'canceled', T0 + 5));
    expect((await courseAccess(d, ann, 'draft')).open).toBe(false);

    // The creator publishes the draft: the run enrols the live member, a page at a time.
    const course = (await d.courses.listByCreator('u1')).find((c) => c.id === 'draft')!;
    course.status = 'published';
    const run = async () => {
      let cursor: string | undefined;
      let enrolled = 0;
      do {
        const slice = await enrolMembersOnPublish(d, { courseId: 'draft', creatorId: 'u1' }, cursor, () => true);
        cursor = slice.cursor;
        enrolled += slice.counts.enrolled;
      } while (cursor !== undefined);
      return enrolled;
    };
    expect(await run()).toBe(1);
    expect(await courseAccess(d, ann, 'draft')).toMatchObject({ open: true, source: 'membership' });
    expect((await courseAccess(d, bob, 'draft')).open).toBe(false);
    expect(await run()).toBe(0);
    expect((await d.enrollments.get('draft', ann))?.sources).toEqual([`membership:${all.id}:sub_1`]);
  });

  it('gives nothing when the course was unpublished again before the run', async () => {
    const d = world();
    const all = await createMembership(d, { creatorId: 'u1', body: body() });
    const ann = await subscribe(d, all.id, 'sub_1');
    expect(await enrolMembersOnPublish(d, { courseId: 'draft', creatorId: 'u1' }, undefined, () => false)).toEqual({ counts: { enrolled: 0 } });
    expect(await d.enrollments.get('draft', ann)).toBeUndefined();
  });
});

describe('a membership its creator deleted while subscriptions run on', () => {
  it('still applies their events without failing: the cancellation ends access to its courses', async () => {
    const d = world();
    const { id } = await createMembership(d, { creatorId: 'u1', body: body() });
    const ann = await subscribe(d, id, 'sub_1');
    await deleteMembership(d, { creatorId: 'u1', membershipId: id });
    expect((await courseAccess(d, ann, 'c1')).open).toBe(true);
    expect((await deliver(d, state(id, 'sub_1', 'canceled', T0 + 10))).outcome).toBe('applied');
    expect((await courseAccess(d, ann, 'c1')).open).toBe(false);
    expect((await courseAccess(d, ann, 'c2')).open).toBe(false);
    // A late event and a checkout for it change nothing and are answered all the same.
    expect((await deliver(d, state(id, 'sub_1', 'active', T0 + 20))).outcome).toBe('stale');
    expect((await deliver(d, bought(id, 'sub_9', 'new@example.com'))).outcome).toBe('unknown');
    expect((await courseAccess(d, ann, 'c1')).open).toBe(false);
  });
});

describe("a member's certificate", () => {
  it('is issued while the subscription gives access, not after it ended', () => {
    const enrollment = { status: 'active' as const, completedAt: NOW, licenseId: undefined, sources: ['membership:m1:sub_1'] };
    const now = new Date(NOW);
    expect(mayHaveCertificate(enrollment, undefined, now, [{ status: 'active', currentPeriodEnd: null }])).toBe(true);
    expect(mayHaveCertificate(enrollment, undefined, now, [{ status: 'canceled', currentPeriodEnd: null }])).toBe(false);
    expect(mayHaveCertificate(enrollment, undefined, now, [])).toBe(false);
  });
});

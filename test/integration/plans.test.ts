import { describe, expect, it } from 'vitest';
import type { FeatureKey } from '#contracts/entitlements.ts';
import { NOT_ON_SALE_NOW } from '#core/sales/checkout.ts';
import { deliver, subscriptionEvent } from './billing-support.ts';
import { accountWithRole, api, eventually, givePlan, outputs, uniqueEmail } from './support.ts';

/**
 * Issue 29: what each plan says is what each plan does, through the gateway (../shared/API.md "Plans
 * (server-enforced)", docs/decisions/0042-plans-enforced.md). Creators are put on their plan as Stripe's webhook leaves
 * it (support.ts `givePlan`), and moved by the subscription events Stripe sends.
 */
type Creator = Awaited<ReturnType<typeof accountWithRole>>;
type Plan = 'none' | 'starter' | 'pro';

const origin = () => new URL(outputs().WebUrl).origin;
const newCourse = async (token: string, title = 'Planned course') => (await api('POST', '/api/courses', { token, body: { title } })).body.id as string;

/**
 * One row per feature key that has routes: a use of it, the plan just below the lowest that includes it (refused 403
 * PLAN_REQUIRED naming that plan), and the plan that includes it (allowed, with the use's own success status). Another
 * feature's routes (detailed reports, priority support, bulk members...) add their row here.
 */
interface FeatureCase {
  feature: FeatureKey;
  below: Plan;
  includes: Exclude<Plan, 'none'>;
  use: (creator: Creator) => Promise<{ status: number; body: { error?: { code: string; details?: unknown } } }>;
  success: number;
}

const featureCases: FeatureCase[] = [
  { feature: 'courses', below: 'none', includes: 'starter', success: 201, use: (c) => api('POST', '/api/courses', { token: c.token, body: { title: 'A course' } }) },
  {
    feature: 'sales',
    below: 'none',
    includes: 'starter',
    success: 200,
    use: (c) => api('POST', '/api/creator/payouts/connect', { token: c.token, body: { returnUrl: `${origin()}/sales`, refreshUrl: `${origin()}/sales` } }),
  },
  {
    feature: 'teamLicenses',
    below: 'none',
    includes: 'starter',
    success: 201,
    // A plan-less creator has no course of their own to name: the refusal comes before the course is looked at.
    use: async (c) => api('POST', `/api/courses/${c.plan === 'none' ? 'any-course' : await newCourse(c.token)}/licenses`, { token: c.token, body: { leaderEmail: uniqueEmail('plan-leader'), seats: 10 } }),
  },
  {
    feature: 'advancedLicensing',
    below: 'starter',
    includes: 'pro',
    success: 201,
    use: async (c) => api('POST', `/api/courses/${await newCourse(c.token)}/licenses`, { token: c.token, body: { leaderEmail: uniqueEmail('plan-leader'), seats: 11 } }),
  },
  {
    feature: 'affiliates',
    below: 'starter',
    includes: 'pro',
    success: 201,
    use: (c) => api('POST', '/api/affiliates', { token: c.token, body: { email: uniqueEmail('plan-affiliate'), name: 'Ali', commissionPercent: 10 } }),
  },
  { feature: 'detailedReports', below: 'starter', includes: 'pro', success: 200, use: (c) => api('GET', '/api/creator/exports/sales?format=csv&delivery=link', { token: c.token }) },
  {
    feature: 'customDomains',
    below: 'starter',
    includes: 'pro',
    success: 201,
    use: (c) => api('POST', '/api/domains', { token: c.token, body: { hostname: `plan-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.example.com` } }),
  },
];

describe('a test per feature key: the plan below is refused, the plan that includes it is served', () => {
  for (const row of featureCases) {
    it(`${row.feature}: ${row.below} -> 403 PLAN_REQUIRED (${row.includes}); ${row.includes} -> ${row.success}`, async () => {
      const below = await accountWithRole('creator', `plan-${row.feature.toLowerCase()}-${row.below}`, { plan: row.below });
      const refused = await row.use(below);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: row.includes } });
      const including = await accountWithRole('creator', `plan-${row.feature.toLowerCase()}-${row.includes}`, { plan: row.includes });
      const served = await row.use(including);
      expect(served.status, JSON.stringify(served.body)).toBe(row.success);
    });
  }

  it('advanced licensing also covers an end date: refused to Starter with the reason, granted to Pro', async () => {
    const body = { leaderEmail: uniqueEmail('plan-leader'), seats: 5, expiresAt: '2031-06-30T23:59:59.000Z' };
    const starter = await accountWithRole('creator', 'plan-expiry-starter', { plan: 'starter' });
    const refused = await api('POST', `/api/courses/${await newCourse(starter.token)}/licenses`, { token: starter.token, body });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'PLAN_REQUIRED', message: expect.stringContaining('End dates'), details: { requiredPlan: 'pro' } } } });
    const pro = await accountWithRole('creator', 'plan-expiry-pro');
    expect((await api('POST', `/api/courses/${await newCourse(pro.token)}/licenses`, { token: pro.token, body })).status).toBe(201);
  });
});

describe("bulkMembers: a leader's import of members, by the licence's creator's plan", () => {
  it("is refused on a Starter creator's licence (403 PLAN_REQUIRED pro, nothing assigned; one by one still works), served on a Pro creator's", async () => {
    const licenseOf = async (creator: Creator, tag: string) => {
      const leader = await accountWithRole('leader', tag);
      const res = await api('POST', `/api/courses/${await newCourse(creator.token)}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 5 } });
      expect(res.status).toBe(201);
      return { leader, licenseId: res.body.id as string };
    };
    const starter = await licenseOf(await accountWithRole('creator', 'plan-bulk-starter', { plan: 'starter' }), 'plan-bulk-leader-s');
    const emails = [uniqueEmail('bulk-a'), uniqueEmail('bulk-b')];
    const refused = await api('POST', `/api/leader/licenses/${starter.licenseId}/seats/import`, { token: starter.leader.token, body: { emails } });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } } } });
    expect((await api('POST', `/api/leader/licenses/${starter.licenseId}/seats`, { token: starter.leader.token, body: { email: emails[0] } })).status).toBe(201);

    const pro = await licenseOf(await accountWithRole('creator', 'plan-bulk-pro'), 'plan-bulk-leader-p');
    const imported = await api('POST', `/api/leader/licenses/${pro.licenseId}/seats/import`, { token: pro.leader.token, body: { emails } });
    expect(imported).toMatchObject({ status: 200, body: { results: emails.map((email) => ({ email, status: 'active' })) } });
    const members = (await api('GET', `/api/leader/licenses/${pro.licenseId}/seats`, { token: pro.leader.token })).body.items as { email: string }[];
    expect(members.map((m) => m.email).sort()).toEqual([...emails].sort());
    // The leader's list says so before any click: the import locked on the Starter creator's licence, open on the Pro one's.
    expect((await api('GET', '/api/leader/licenses', { token: starter.leader.token })).body.items).toEqual([expect.objectContaining({ id: starter.licenseId, bulkMembers: false })]);
    expect((await api('GET', '/api/leader/licenses', { token: pro.leader.token })).body.items).toEqual([expect.objectContaining({ id: pro.licenseId, bulkMembers: true })]);
  });
});

/** The subscription's next event, as Stripe sends it (a later second than the plan it replaces). */
const move = async (creator: Creator, status: string, price = 'price_pro_monthly') => {
  const { customerId, subscriptionId } = creator.subscription!;
  const type = status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated';
  const res = await deliver(subscriptionEvent({ type, created: Math.floor(Date.now() / 1000), customer: customerId, subscription: subscriptionId, status, price }));
  expect(res.status).toBe(200);
};

describe("a creator's plan over time", () => {
  it('a trial counts as Starter: courses yes, affiliates no (Pro)', async () => {
    const creator = await accountWithRole('creator', 'plan-trial', { plan: 'none' });
    await givePlan(creator, 'starter', 'trialing');
    expect((await api('GET', '/api/me/subscription', { token: creator.token })).body).toMatchObject({ status: 'trialing', features: ['courses', 'sales', 'teamLicenses'] });
    expect((await api('POST', '/api/courses', { token: creator.token, body: { title: 'On trial' } })).status).toBe(201);
    const affiliate = await api('POST', '/api/affiliates', { token: creator.token, body: { email: uniqueEmail('trial-aff'), name: 'Ali', commissionPercent: 10 } });
    expect(affiliate.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } });
  });

  it('a past-due subscription keeps its plan until Stripe ends it', async () => {
    const creator = await accountWithRole('creator', 'plan-past-due');
    await move(creator, 'past_due');
    expect((await api('GET', '/api/me/subscription', { token: creator.token })).body).toMatchObject({ status: 'past_due', tier: 'pro' });
    const made = await api('POST', '/api/affiliates', { token: creator.token, body: { email: uniqueEmail('due-aff'), name: 'Ali', commissionPercent: 10 } });
    expect(made.status).toBe(201);
  });

  it('canceled is no plan: new uses refused, the creator still reads their data, learners keep learning, the course is not on sale', async () => {
    const creator = await accountWithRole('creator', 'plan-canceled');
    const courseId = await newCourse(creator.token, 'Kept course');
    const lessonId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'One', kind: 'text', body: '<p>One.</p>' } })).body.id as string;
    const two = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Two', kind: 'text', body: '<p>Two.</p>' } })).body.id as string;
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published', priceAmount: 1500 } })).status).toBe(200);
    const learner = await accountWithRole('learner', 'plan-canceled-learner');
    expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonId}/complete`, { token: learner.token })).status).toBe(200);

    await move(creator, 'canceled');
    const refused = await eventually(() => api('POST', '/api/courses', { token: creator.token, body: { title: 'After the end' } }), (r) => r.status === 403);
    expect(refused.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'starter' } });
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { title: 'Renamed' } })).status).toBe(403);
    // Reads stay open: the course, the list, its learners, the plan picker.
    expect((await api('GET', `/api/courses/${courseId}`, { token: creator.token })).body).toMatchObject({ id: courseId, title: 'Kept course' });
    expect((await api('GET', '/api/courses', { token: creator.token })).status).toBe(200);
    expect((await api('GET', `/api/courses/${courseId}/enrollments`, { token: creator.token })).status).toBe(200);
    expect((await api('GET', '/api/me/subscription', { token: creator.token })).body).toMatchObject({ status: 'canceled', features: [] });
    // The learner keeps the course and goes on with it.
    expect((await api('GET', `/api/learner/courses/${courseId}`, { token: learner.token })).status).toBe(200);
    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${two}/complete`, { token: learner.token })).status).toBe(200);
    // Visitors: the page says it is not on sale, and a checkout says why.
    expect((await api('GET', `/api/public/courses/${courseId}`)).body).toMatchObject({ onSale: false });
    const checkout = await api('POST', `/api/public/courses/${courseId}/checkout`, { body: { successUrl: `${origin()}/c/${courseId}`, cancelUrl: `${origin()}/c/${courseId}` } });
    expect(checkout).toMatchObject({ status: 409, body: { error: { code: 'CONFLICT', message: NOT_ON_SALE_NOW } } });
  });

  it('a downgrade from Pro to Starter keeps an existing 50-seat licence working; new licences and raises past 10 seats are refused', async () => {
    const creator = await accountWithRole('creator', 'plan-downgrade');
    const courseId = await newCourse(creator.token, 'Big team course');
    const leader = await accountWithRole('leader', 'plan-downgrade-leader');
    const granted = await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 50 } });
    expect(granted.status).toBe(201);
    const licenseId = granted.body.id as string;

    await move(creator, 'active', 'price_starter_monthly');
    const refused = await eventually(
      () => api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: uniqueEmail('plan-leader'), seats: 50 } }),
      (r) => r.status === 403,
    );
    expect(refused.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } });
    // The leader fills the licence past 10 seats: what was made under Pro keeps working.
    for (let i = 0; i < 12; i++) {
      const seat = await api('POST', `/api/leader/licenses/${licenseId}/seats`, { token: leader.token, body: { email: uniqueEmail(`plan-member-${i}`) } });
      expect(seat.status).toBe(201);
    }
    const listed = (await api('GET', `/api/courses/${courseId}/licenses`, { token: creator.token })).body.items as { id: string; seatsUsed: number; seatsTotal: number }[];
    expect(listed.find((l) => l.id === licenseId)).toMatchObject({ seatsUsed: 12, seatsTotal: 50 });
    expect((await api('PATCH', `/api/courses/${courseId}/licenses/${licenseId}`, { token: creator.token, body: { seatsTotal: 60 } })).status).toBe(403);
    expect((await api('PATCH', `/api/courses/${courseId}/licenses/${licenseId}`, { token: creator.token, body: { seatsTotal: 40 } })).body).toMatchObject({ seatsTotal: 40 });
  });
});

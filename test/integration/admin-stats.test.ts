import { describe, expect, it } from 'vitest';
import { adminStats, type AdminStats } from '#contracts/admin.ts';
import { accountWithRole, api, counted, outputs } from './support.ts';

/** The app's own origin (the handlers' APP_ORIGIN): checkout return addresses must be on it. */
const origin = () => new URL(outputs().WebUrl).origin;

const stats = async (token: string): Promise<AdminStats> => {
  const res = await api('GET', '/api/admin/stats', { token });
  expect(res.status).toBe(200);
  return adminStats.parse(res.body);
};

/** Checkout through the Stripe stand-in and press Pay: it delivers the signed webhooks to the real handler. */
const subscribe = async (token: string, planType: 'starter' | 'pro') => {
  const res = await api('POST', '/api/billing/checkout', { token, body: { planType, successUrl: `${origin()}/checkout/success`, cancelUrl: `${origin()}/` } });
  expect(res.status).toBe(200);
  const paid = await fetch(`${res.body.url}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
};

const thisWeek = (s: AdminStats) => s.trends.weeks.at(-1)!;

describe('GET /api/admin/stats', () => {
  it('counts new accounts by role, in this week and in the recent activity', async () => {
    const admin = await accountWithRole('admin', 'stats-admin');
    const before = await stats(admin.token);
    const creator = await accountWithRole('creator', 'stats-creator');
    await accountWithRole('learner', 'stats-learner');
    const after = await stats(admin.token);
    expect(after.users.total - before.users.total).toBe(2);
    expect(after.users.creators - before.users.creators).toBe(1);
    expect(after.users.learners - before.users.learners).toBe(1);
    expect(thisWeek(after).signUps - thisWeek(before).signUps).toBe(2);
    expect(after.recentActivity.map((line) => line.text)).toContain(`New creator: ${creator.email}`);
  });

  it('moves the subscription figures, estimate and MRR with a Pro subscription, and not again on a redelivered event', async () => {
    const admin = await accountWithRole('admin', 'stats-admin');
    const creator = await accountWithRole('creator', 'stats-pro', { plan: 'none' });
    const before = await stats(admin.token);
    await subscribe(creator.token, 'pro');
    const after = await stats(admin.token);
    expect(after.subscriptions.subscribed - before.subscriptions.subscribed).toBe(1);
    expect(after.subscriptions.pro - before.subscriptions.pro).toBe(1);
    expect(after.revenue.estimatedMonthly - before.revenue.estimatedMonthly).toBe(2900);
    expect(after.revenue.mrr - before.revenue.mrr).toBe(6700);
    expect(thisWeek(after).mrr).toBe(after.revenue.mrr);
    expect(after.recentActivity.filter((line) => line.text === 'A creator subscribed to Pro').length).toBeGreaterThan(0);

    // Stripe delivers every event of that subscription again: nothing moves twice.
    const events = (await (await fetch(`${outputs().StripeApiUrl}/_stand-in/events`)).json()) as { data: { event: { id: string } }[] };
    for (const { event } of events.data.slice(-5)) await fetch(`${outputs().StripeApiUrl}/_stand-in/events/${event.id}/redeliver`, { method: 'POST' });
    const again = await stats(admin.token);
    expect(again.subscriptions).toEqual(after.subscriptions);
    expect(again.revenue).toEqual(after.revenue);
    expect(again.recentActivity).toEqual(after.recentActivity);
  });

  it('counts published courses once per change of status, and a deleted published course no more', async () => {
    const admin = await accountWithRole('admin', 'stats-admin');
    const creator = await accountWithRole('creator', 'stats-courses');
    const published = async () => (await stats(admin.token)).courses.published;
    const before = await published();
    const course = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Counted' } })).body as { id: string };
    const setStatus = async (status: 'draft' | 'published') => {
      const res = await api('PATCH', `/api/courses/${course.id}`, { token: creator.token, body: { status } });
      expect(res).toMatchObject({ status: 200, body: { status } });
    };
    expect(await published()).toBe(before);
    await setStatus('published');
    await setStatus('published');
    expect(await published()).toBe(before + 1);
    await setStatus('draft');
    expect(await published()).toBe(before);
    await setStatus('published');
    expect((await api('DELETE', `/api/courses/${course.id}`, { token: creator.token })).status).toBe(200);
    expect(await published()).toBe(before);
  });

  it("moves the Active Courses figures: every course, its active enrolments and the completed ones, until it is deleted", async () => {
    const admin = await accountWithRole('admin', 'stats-admin');
    const creator = await accountWithRole('creator', 'stats-figures');
    const learner = await accountWithRole('learner', 'stats-figures-learner');
    // The enrolments' figures come from the table's stream (decision 0040): read once it has counted what was written.
    const figures = () => counted(async () => (await stats(admin.token)).courses);
    const before = await figures();
    const course = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Figures' } })).body as { id: string };
    const lesson = (await api('POST', `/api/courses/${course.id}/lessons`, { token: creator.token, body: { title: 'Only', kind: 'text', body: '<p>x</p>' } })).body as { id: string };
    expect((await api('PATCH', `/api/courses/${course.id}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    expect(await figures()).toEqual({ ...before, published: before.published + 1, total: before.total + 1 });

    expect((await api('POST', `/api/courses/${course.id}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    expect((await figures()).enrollments).toBe(before.enrollments + 1);
    expect((await api('POST', `/api/learner/courses/${course.id}/lessons/${lesson.id}/complete`, { token: learner.token })).status).toBe(200);
    expect(await figures()).toEqual({ published: before.published + 1, total: before.total + 1, enrollments: before.enrollments + 1, completed: before.completed + 1 });

    expect((await api('DELETE', `/api/courses/${course.id}`, { token: creator.token })).status).toBe(200);
    // The course's own figures at once; its enrolments' as its 'course-changed' run removes them (a moment later).
    expect(await figures()).toMatchObject({ published: before.published, total: before.total });
    const ends = Date.now() + 30_000;
    while (JSON.stringify(await figures()) !== JSON.stringify(before) && Date.now() < ends) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await figures()).toEqual(before);
  });

  it('is for admins only: 403 for every other role, 401 without a token', async () => {
    for (const role of ['creator', 'leader', 'learner'] as const) {
      const user = await accountWithRole(role, `stats-${role}`);
      expect((await api('GET', '/api/admin/stats', { token: user.token })).status).toBe(403);
    }
    expect((await api('GET', '/api/admin/stats')).status).toBe(401);
  });
});

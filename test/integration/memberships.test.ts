import { beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, connectPayouts } from '#lib/local/demo-flows.ts';
import { accountWithRole, api, eventually, outputs } from './support.ts';

/**
 * Memberships (issue 34 points 2-4), end to end through the Stripe stand-in's subscriptions on the creator's connected
 * account and the signed Connect webhooks to the real handler: a learner subscribes, reads the courses, cancels in the
 * billing portal (at the period's end), loses access when the period advances (progress kept), and gets it back by
 * subscribing again; Stripe's events redelivered late and twice change nothing.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let learner: Account;
let knives: string;
let membershipId: string;

const origin = () => outputs().WebUrl;
const stripe = () => outputs().StripeApiUrl;

interface StandInEvent { event: { id: string; type: string; account?: string; data: { object: { id: string; status?: string; metadata?: Record<string, string> } } } }
const standInEvents = async (type: string): Promise<StandInEvent[]> =>
  ((await (await fetch(`${stripe()}/_stand-in/events?type=${type}`)).json()) as { data: StandInEvent[] }).data.filter(
    (item) => item.event.data.object.metadata?.['membershipId'] === membershipId,
  );
const control = async (path: string, body: unknown = {}) => {
  const res = await fetch(`${stripe()}/_stand-in/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};

const opens = async (courseId = knives) => (await api('GET', `/api/learner/courses/${courseId}`, { token: learner.token })).status;

/** Subscribes on the stand-in's hosted page; answers the new subscription's id once its row says active. */
const subscribe = async (): Promise<string> => {
  const page = `${origin()}/m/${membershipId}`;
  const started = await api('POST', `/api/public/memberships/${membershipId}/checkout`, { body: { successUrl: `${page}?joined=1`, cancelUrl: page, email: learner.email } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const before = new Set((await standInEvents('customer.subscription.created')).map((item) => item.event.data.object.id));
  const paid = await fetch(`${started.body.url as string}/pay`, { method: 'POST', redirect: 'manual' });
  await paid.body?.cancel();
  expect(paid.status).toBe(303);
  const created = await standInEvents('customer.subscription.created');
  const subscriptionId = created.map((item) => item.event.data.object.id).find((id) => !before.has(id))!;
  await eventually(
    () => api('GET', `/api/memberships/${membershipId}/members`, { token: creator.token }),
    (res) => (res.body.items as { email: string; status: string }[]).filter((m) => m.email === learner.email && m.status === 'active').length > 0,
  );
  return subscriptionId;
};

beforeAll(async () => {
  creator = await accountWithRole('creator', 'member-seller');
  learner = await accountWithRole('learner', 'member');
  await connectPayouts(apiCaller(outputs()), outputs(), creator.token);
  knives = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Knife skills', description: 'Cook.' } })).body.id as string;
  await api('POST', `/api/courses/${knives}/lessons`, { token: creator.token, body: { title: 'First', kind: 'text', body: '<p>Begin.</p>' } });
  await api('PATCH', `/api/courses/${knives}`, { token: creator.token, body: { status: 'published', priceAmount: 2000 } });
  const created = await api('POST', '/api/memberships', { token: creator.token, body: { title: 'Everything', interval: 'month', priceAmount: 1500, courseIds: 'all' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  membershipId = created.body.id as string;
}, 90_000);

describe('a membership to all of a creator’s courses', () => {
  let first: string;

  it('is on its public page, and a subscriber reads its courses', async () => {
    const shown = await api('GET', `/api/public/memberships/${membershipId}`);
    expect(shown.body).toMatchObject({ interval: 'month', priceAmount: 1500, allCourses: true, courses: [{ id: knives }] });
    expect(await opens()).toBe(404);
    first = await subscribe();
    expect(await eventually(() => opens(), (status) => status === 200)).toBe(200);
    const course = (await api('GET', `/api/learner/courses/${knives}`, { token: learner.token })).body as { lessons: { id: string }[] };
    const completed = await api('POST', `/api/learner/courses/${knives}/lessons/${course.lessons[0]!.id}/complete`, { token: learner.token, body: {} });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  });

  it('cancelled in the billing portal, runs to the period’s end; then access ends, progress kept', async () => {
    const portal = await api('POST', `/api/learner/memberships/${membershipId}/portal`, { token: learner.token, body: { returnUrl: `${origin()}/dashboard` } });
    expect(portal.status, JSON.stringify(portal.body)).toBe(200);
    const cancel = await fetch(`${portal.body.url as string}/subscriptions/${first}/cancel`, { method: 'POST', redirect: 'manual' });
    await cancel.body?.cancel();
    expect(cancel.status).toBe(303);
    await eventually(
      () => api('GET', `/api/memberships/${membershipId}/members`, { token: creator.token }),
      (res) => (res.body.items as { cancelAtPeriodEnd: boolean }[]).some((m) => m.cancelAtPeriodEnd),
    );
    expect(await opens()).toBe(200);

    await control(`subscriptions/${first}/advance`);
    expect(await eventually(() => opens(), (status) => status === 404)).toBe(404);
  });

  it('a late and a repeated event change nothing: the deleted subscription does not come back', async () => {
    const updated = (await standInEvents('customer.subscription.updated')).filter((item) => item.event.data.object.id === first);
    const created = (await standInEvents('customer.subscription.created')).filter((item) => item.event.data.object.id === first);
    for (const item of [...updated, ...created, ...created]) await control(`events/${item.event.id}/redeliver`);
    expect(await opens()).toBe(404);
    const members = (await api('GET', `/api/memberships/${membershipId}/members`, { token: creator.token })).body.items as { status: string }[];
    expect(members.map((m) => m.status)).toEqual(['canceled']);
  });

  let second: string;
  it('subscribing again brings the course back with its progress', async () => {
    second = await subscribe();
    expect(await eventually(() => opens(), (status) => status === 200)).toBe(200);
    const course = (await api('GET', `/api/learner/courses/${knives}`, { token: learner.token })).body as { progress: number };
    expect(course.progress).toBe(100);
  });

  it("both subscriptions' whole histories redelivered at once, newest first, leave each in its last state: one row each", async () => {
    const history = (
      await Promise.all(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted', 'invoice.paid'].map(standInEvents))
    )
      .flat()
      .filter((item) => [first, second].includes(item.event.data.object.id) || [first, second].includes((item.event.data.object as { subscription?: string }).subscription ?? ''))
      .reverse();
    expect(history.length).toBeGreaterThanOrEqual(4);
    await Promise.all(history.map((item) => control(`events/${item.event.id}/redeliver`)));
    expect(await opens()).toBe(200);
    const members = (await api('GET', `/api/memberships/${membershipId}/members`, { token: creator.token })).body.items as { email: string; status: string }[];
    expect(members.map((m) => m.status).sort()).toEqual(['active', 'canceled']);
    expect(members.every((m) => m.email === learner.email)).toBe(true);
  });
});

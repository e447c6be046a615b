import { beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, buyCourse, connectPayouts, listSales } from '#lib/local/demo-flows.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, eventually, outputs } from './support.ts';

/**
 * Bundles (issue 34 point 1), end to end: a creator groups two of their published courses; buyers buy the bundle
 * through the public checkout and the Stripe stand-in's hosted page (signed Connect webhooks to the real handler), as
 * test/integration/course-sales.test.ts buys a course. Paid: the buyer opens both courses; refunded: both go, except a
 * course the buyer also bought alone. (test/integration/bundles.test.ts is the shipped Lambda bundles' test.)
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let knives: string;
let stocks: string;

const origin = () => outputs().WebUrl;

const publishedCourse = async (title: string, priceAmount: number): Promise<string> => {
  const id = (await api('POST', '/api/courses', { token: creator.token, body: { title, description: 'Cook.' } })).body.id as string;
  await api('POST', `/api/courses/${id}/lessons`, { token: creator.token, body: { title: 'First', kind: 'text', body: '<p>Begin.</p>' } });
  await api('PATCH', `/api/courses/${id}`, { token: creator.token, body: { status: 'published', priceAmount } });
  return id;
};

/** The buyer pays the bundle on the stand-in's hosted page; answers the paid sale as the creator's Sales list shows it. */
const buyBundle = async (bundleId: string, email: string) => {
  const page = `${origin()}/b/${bundleId}`;
  const started = await api('POST', `/api/public/bundles/${bundleId}/checkout`, { body: { successUrl: `${page}?purchase=success`, cancelUrl: page, email } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const paid = await fetch(`${started.body.url as string}/pay`, { method: 'POST', redirect: 'manual' });
  await paid.body?.cancel();
  expect(paid.status).toBe(303);
  const sales = await eventually(
    () => listSales(apiCaller(outputs()), creator.token),
    (items) => items.some((s) => s.courseId === bundleId && s.buyerEmail === email && s.status === 'paid'),
  );
  return sales.find((s) => s.courseId === bundleId && s.buyerEmail === email)!;
};

const opens = async (learner: Account, courseId: string) => (await api('GET', `/api/learner/courses/${courseId}`, { token: learner.token })).status;

beforeAll(async () => {
  creator = await accountWithRole('creator', 'bundler');
  await connectPayouts(apiCaller(outputs()), outputs(), creator.token);
  knives = await publishedCourse('Knife skills', 2000);
  stocks = await publishedCourse('Stocks and sauces', 1500);
}, 60_000);

describe('a bundle of two courses', () => {
  let bundleId: string;

  it('holds 2-50 of the creator’s own published courses, and shows the saving over the separate prices', async () => {
    const draft = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Not yet' } })).body.id as string;
    const one = await api('POST', '/api/bundles', { token: creator.token, body: { title: 'Alone', courseIds: [knives], priceAmount: 1000 } });
    expect(one.status).toBe(400);
    const withDraft = await api('POST', '/api/bundles', { token: creator.token, body: { title: 'Draft', courseIds: [knives, draft], priceAmount: 1000 } });
    expect(withDraft.status).toBe(400);
    expect(withDraft.body.error.message).toContain(draft);

    const created = await api('POST', '/api/bundles', { token: creator.token, body: { title: 'Kitchen basics', description: 'Both.', courseIds: [knives, stocks], priceAmount: 3000 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ title: 'Kitchen basics', priceAmount: 3000, separateAmount: 3500, savingAmount: 500, active: true });
    bundleId = created.body.id as string;
    expect((await api('GET', '/api/bundles', { token: creator.token })).body.items.map((b: { id: string }) => b.id)).toEqual([bundleId]);

    const shown = await api('GET', `/api/public/bundles/${bundleId}`, {});
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: bundleId, priceAmount: 3000, currency: 'gbp', savingAmount: 500, onSale: true, courses: [{ id: knives, title: 'Knife skills' }, { id: stocks, title: 'Stocks and sauces' }] });

    // Off sale: its page and its checkout are 404 as for a bundle that does not exist.
    await api('PATCH', `/api/bundles/${bundleId}`, { token: creator.token, body: { active: false } });
    expect((await api('GET', `/api/public/bundles/${bundleId}`, {})).status).toBe(404);
    expect((await api('POST', `/api/public/bundles/${bundleId}/checkout`, { body: { successUrl: `${origin()}/b`, cancelUrl: `${origin()}/b` } })).status).toBe(404);
    await api('PATCH', `/api/bundles/${bundleId}`, { token: creator.token, body: { active: true } });
  });

  it('bought: the buyer opens both courses; refunded: both go, except the course the buyer also bought alone', async () => {
    const both = await accountWithRole('learner', 'bundle-buyer');
    const alsoAlone = await accountWithRole('learner', 'bundle-and-course-buyer');
    // One of them bought Knife skills on its own first.
    await buyCourse(apiCaller(outputs()), outputs(), { creatorToken: creator.token, courseId: knives, email: alsoAlone.email });
    expect(await opens(alsoAlone, stocks)).toBe(404);

    const sale = await buyBundle(bundleId, both.email);
    const other = await buyBundle(bundleId, alsoAlone.email);
    // One sale each, at the bundle's price, shown as the bundle's.
    expect(sale).toMatchObject({ courseTitle: 'Kitchen basics', bundleId, amount: 3000, status: 'paid' });
    for (const learner of [both, alsoAlone]) {
      expect(await eventually(() => opens(learner, knives), (status) => status === 200)).toBe(200);
      expect(await eventually(() => opens(learner, stocks), (status) => status === 200)).toBe(200);
    }
    const courses = (await api('GET', '/api/learner/courses', { token: both.token })).body.items.map((c: { courseId: string }) => c.courseId).sort();
    expect(courses).toEqual([knives, stocks].sort());

    expect((await api('POST', `/api/sales/${sale.id}/refund`, { token: creator.token })).status).toBe(200);
    expect((await api('POST', `/api/sales/${other.id}/refund`, { token: creator.token })).status).toBe(200);
    expect(await opens(both, knives)).toBe(404);
    expect(await opens(both, stocks)).toBe(404);
    // The course bought alone stays, with the access that purchase gave; the bundle's other course goes.
    expect(await opens(alsoAlone, knives)).toBe(200);
    expect(await opens(alsoAlone, stocks)).toBe(404);
  }, 120_000);

  it("the order's Stripe events redelivered three times at once change nothing: one sale, two enrolments, no second email", async () => {
    const buyer = await accountWithRole('learner', 'bundle-redelivered');
    const sale = await buyBundle(bundleId, buyer.email);
    for (const courseId of [knives, stocks]) expect(await eventually(() => opens(buyer, courseId), (status) => status === 200)).toBe(200);
    // The buyer's emails once the mail queue has sent them (the webhook queues them): each subject once.
    const subjects = async () => (await mailsTo(buyer.email)).map((mail) => mail.subject).sort();
    await eventually(subjects, (list) => list.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = await subjects();
    expect(new Set(before).size).toBe(before.length);
    const { data } = (await (await fetch(`${outputs().StripeApiUrl}/_stand-in/events`)).json()) as { data: { event: { id: string; data: { object: { metadata?: Record<string, string> } } } }[] };
    const events = data.filter((item) => item.event.data.object.metadata?.['orderId'] === sale.id).map((item) => item.event.id);
    expect(events.length).toBeGreaterThan(0);
    const redelivered = await Promise.all([...events, ...events, ...events].map((id) => fetch(`${outputs().StripeApiUrl}/_stand-in/events/${id}/redeliver`, { method: 'POST' })));
    expect(redelivered.map((res) => res.status)).toEqual(redelivered.map(() => 200));

    const sales = (await listSales(apiCaller(outputs()), creator.token)).filter((s) => s.buyerEmail === buyer.email);
    expect(sales.map((s) => [s.id, s.status])).toEqual([[sale.id, 'paid']]);
    const courses = (await api('GET', '/api/learner/courses', { token: buyer.token })).body.items.map((c: { courseId: string }) => c.courseId).sort();
    expect(courses).toEqual([knives, stocks].sort());
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await subjects()).toEqual(before);
  }, 120_000);
});

describe('the creator’s bundles are their own', () => {
  it('a bundle cannot hold another creator’s course', async () => {
    const other = await accountWithRole('creator', 'other-bundler');
    const res = await api('POST', '/api/bundles', { token: other.token, body: { title: 'Taken', courseIds: [knives, stocks], priceAmount: 1000 } });
    expect(res.status).toBe(400);
  });
});

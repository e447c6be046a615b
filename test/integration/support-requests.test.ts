import { beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_REQUESTS_PER_DAY } from '#contracts/support.ts';
import { deliver, linkCustomer, subscriptionEvent } from './billing-support.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, eventually } from './support.ts';

/**
 * Priority support end to end on the local cloud (issue 29 point 4): a Pro, a Starter and a never-subscribed creator
 * ask for help, the admin's inbox lists the Pro request first, the admin replies and closes it, the creator reads the
 * reply in their thread, and the reply's email with the link to the Support page is in SES local's store.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let pro: Account;
let starter: Account;
let unsubscribed: Account;
let admin: Account;

const subscribe = async (account: Account, plan: 'pro' | 'starter') => {
  const customer = await linkCustomer(account.id);
  const event = subscriptionEvent({
    type: 'customer.subscription.created',
    created: Math.floor(Date.now() / 1000),
    customer,
    subscription: `sub_support_${account.id}`,
    status: plan === 'pro' ? 'active' : 'trialing',
    price: plan === 'pro' ? 'price_pro_monthly' : 'price_starter_monthly',
    ...(plan === 'starter' ? { trialEnd: new Date(Date.now() + 14 * 86_400_000).toISOString() } : {}),
  });
  expect((await deliver(event)).status).toBe(200);
  await eventually(() => api('GET', '/api/me/subscription', { token: account.token }), (r) => r.body.tier === plan);
};

/** Every open (or closed) request of the inbox, page after page, in the inbox's order. */
const inbox = async (status: 'open' | 'closed') => {
  const items: { id: string; priority: string; creatorEmail: string; status: string; replies: unknown[] }[] = [];
  let cursor: string | null = null;
  do {
    const res = await api('GET', `/api/admin/support?status=${status}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...(res.body.items as typeof items));
    cursor = res.body.nextCursor as string | null;
  } while (cursor);
  return items;
};

beforeAll(async () => {
  [pro, starter, unsubscribed, admin] = await Promise.all([
    accountWithRole('creator', 'support-pro'),
    accountWithRole('creator', 'support-starter'),
    accountWithRole('creator', 'support-none'),
    accountWithRole('admin', 'support-admin'),
  ]);
  await subscribe(pro, 'pro');
  await subscribe(starter, 'starter');
});

describe('support requests', () => {
  it('a Pro request is priority, Starter and no plan are standard; the inbox has the Pro one first; the reply is emailed and closes it', async () => {
    const starterAsk = await api('POST', '/api/support/requests', { token: starter.token, body: { subject: 'Starter question', body: 'How do coupons work?' } });
    expect(starterAsk.status, JSON.stringify(starterAsk.body)).toBe(201);
    expect(starterAsk.body).toMatchObject({ subject: 'Starter question', status: 'open', priority: 'standard' });
    const noneAsk = await api('POST', '/api/support/requests', { token: unsubscribed.token, body: { subject: 'Before I subscribe', body: 'Which plan?' } });
    expect(noneAsk.status).toBe(201);
    expect(noneAsk.body.priority).toBe('standard');
    const proAsk = await api('POST', '/api/support/requests', { token: pro.token, body: { subject: 'Payout missing', body: 'My payout did not arrive.' } });
    expect(proAsk.status).toBe(201);
    expect(proAsk.body).toEqual({ id: expect.any(String), subject: 'Payout missing', status: 'open', priority: 'priority', createdAt: expect.any(String) });

    // Asked last, listed first: priority before standard, whatever the age.
    const open = await inbox('open');
    const order = open.map((r) => r.id);
    expect(order.indexOf(proAsk.body.id as string)).toBeLessThan(order.indexOf(starterAsk.body.id as string));
    expect(open.find((r) => r.id === proAsk.body.id)).toMatchObject({ priority: 'priority', creatorEmail: pro.email, status: 'open' });
    const priorities = open.map((r) => r.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => (a === b ? 0 : a === 'priority' ? -1 : 1)));

    const replied = await api('POST', `/api/admin/support/${proAsk.body.id as string}/replies`, { token: admin.token, body: { body: 'It leaves tomorrow.\nSorry for the wait.', close: true } });
    expect(replied.status, JSON.stringify(replied.body)).toBe(201);
    expect(replied.body).toMatchObject({ id: proAsk.body.id, status: 'closed', replies: [{ body: 'It leaves tomorrow.\nSorry for the wait.', from: 'support' }] });

    const thread = await api('GET', '/api/support/requests', { token: pro.token });
    expect(thread.status).toBe(200);
    expect(thread.body.items).toEqual([
      expect.objectContaining({ id: proAsk.body.id, status: 'closed', priority: 'priority', body: 'My payout did not arrive.', replies: [{ body: 'It leaves tomorrow.\nSorry for the wait.', at: expect.any(String), from: 'support' }] }),
    ]);
    expect((await inbox('open')).map((r) => r.id)).not.toContain(proAsk.body.id);
    expect((await inbox('closed')).map((r) => r.id)).toContain(proAsk.body.id);

    const mail = (await eventually(() => mailsTo(pro.email), (mails) => mails.length > 0))[0]!;
    expect(mail.subject).toBe('Course Platform support answered your request');
    expect(mail.body.text).toContain('It leaves tomorrow.\nSorry for the wait.');
    expect(mail.body.text).toContain('/dashboard/creator/support');
    expect(mail.body.html).toContain('/dashboard/creator/support');
    // A second reply to the closed request is refused and emails nothing.
    const again = await api('POST', `/api/admin/support/${proAsk.body.id as string}/replies`, { token: admin.token, body: { body: 'More' } });
    expect(again.status).toBe(409);
    expect(await mailsTo(pro.email)).toHaveLength(1);
  });

  it("shows a creator only their own requests, newest first; another's request is not theirs to read", async () => {
    const first = await api('POST', '/api/support/requests', { token: unsubscribed.token, body: { subject: 'Second question', body: 'And another.' } });
    expect(first.status).toBe(201);
    const mine = await api('GET', '/api/support/requests', { token: unsubscribed.token });
    expect((mine.body.items as { subject: string }[]).map((r) => r.subject)).toEqual(['Second question', 'Before I subscribe']);
    const theirs = await api('GET', '/api/support/requests', { token: starter.token });
    expect((theirs.body.items as { subject: string }[]).map((r) => r.subject)).toEqual(['Starter question']);
  });

  it('answers bad input with 400 and its message, an unknown request with 404, and caps a creator at the day', async () => {
    const blank = await api('POST', '/api/support/requests', { token: starter.token, body: { subject: '', body: 'x' } });
    expect(blank.status).toBe(400);
    expect(blank.body.error.code).toBe('VALIDATION_FAILED');
    const long = await api('POST', '/api/support/requests', { token: starter.token, body: { subject: 'x'.repeat(201), body: 'x' } });
    expect(long.status).toBe(400);
    const planted = await api('POST', '/api/support/requests', { token: starter.token, body: { subject: 'x', body: 'y', priority: 'priority' } });
    expect(planted.status).toBe(400);
    const missing = await api('POST', '/api/admin/support/sr_nope/replies', { token: admin.token, body: { body: 'Hello' } });
    expect(missing.status).toBe(404);
    expect((await api('GET', '/api/admin/support?status=pending', { token: admin.token })).status).toBe(400);

    const capped = await accountWithRole('creator', 'support-capped');
    for (let i = 0; i < SUPPORT_REQUESTS_PER_DAY; i++) {
      const res = await api('POST', '/api/support/requests', { token: capped.token, body: { subject: `Q${i}`, body: 'x' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const over = await api('POST', '/api/support/requests', { token: capped.token, body: { subject: 'One more', body: 'x' } });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('RATE_LIMITED');
    expect((await api('GET', '/api/support/requests', { token: capped.token })).body.items).toHaveLength(SUPPORT_REQUESTS_PER_DAY);
  });

  it("lets a creator add to their own open request ('you' in the thread, seen in the inbox), not to another's (404) or a closed one (409)", async () => {
    const asked = await api('POST', '/api/support/requests', { token: starter.token, body: { subject: 'Follow-up', body: 'First message.' } });
    const path = `/api/support/requests/${asked.body.id as string}/replies`;
    const added = await api('POST', path, { token: starter.token, body: { body: 'One more detail.' } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ id: asked.body.id, status: 'open', replies: [{ body: 'One more detail.', from: 'you' }] });
    expect((await inbox('open')).find((r) => r.id === asked.body.id)?.replies).toEqual([expect.objectContaining({ body: 'One more detail.', from: 'you' })]);
    const foreign = await api('POST', path, { token: pro.token, body: { body: 'Not mine' } });
    expect(foreign.status).toBe(404);
    // The admin's reply retried under its Idempotency-Key (its first answer lost): one reply, one email.
    const retried = { token: admin.token, body: { body: 'Answered.', close: true }, headers: { 'Idempotency-Key': `support-reply-${Date.now()}` } };
    const [first, again] = [await api('POST', `/api/admin/support/${asked.body.id as string}/replies`, retried), await api('POST', `/api/admin/support/${asked.body.id as string}/replies`, retried)];
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect((again.body.replies as unknown[]).length).toBe(2);
    expect((await api('POST', path, { token: starter.token, body: { body: 'Late' } })).status).toBe(409);
    // Only support's reply was emailed, once.
    expect((await eventually(() => mailsTo(starter.email), (mails) => mails.some((m) => m.body.text?.includes('Answered.') === true))).filter((m) => m.subject === 'Course Platform support answered your request')).toHaveLength(1);
  });

  it('makes one request of a retried POST with the same Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': `support-retry-${Date.now()}` };
    const [a, b] = await Promise.all([
      api('POST', '/api/support/requests', { token: pro.token, body: { subject: 'Once', body: 'x' }, headers }),
      api('POST', '/api/support/requests', { token: pro.token, body: { subject: 'Once', body: 'x' }, headers }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).toBe(b.body.id);
    const mine = (await api('GET', '/api/support/requests', { token: pro.token })).body.items as { subject: string }[];
    expect(mine.filter((r) => r.subject === 'Once')).toHaveLength(1);
  });
});

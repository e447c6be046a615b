import { describe, expect, it } from 'vitest';
import { SUPPORT_REPLIES_MAX, SUPPORT_REQUESTS_PER_DAY, createSupportRequestBody, supportReplyBody } from '#contracts/support.ts';
import { AppError, ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import {
  adminSupportInbox,
  createSupportRequest,
  followUpSupportRequest,
  listSupportRequests,
  replySupportRequest,
  SUPPORT_PAGE_PATH,
  SUPPORT_REQUEST_CHANGED,
  SUPPORT_REQUEST_CLOSED,
  SUPPORT_REQUEST_CLOSED_FOR_YOU,
  SUPPORT_THREAD_FULL,
} from '#core/support/support.ts';
import { supportReplyEmail } from '#core/support/support-email.ts';
import { memoryBilling, storedSubscription } from '#test/functions/fakes/billing.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { APP_ORIGIN, creator } from '#test/functions/fakes/deps.ts';
import { memoryMailer, memoryMailQueue } from '#test/functions/fakes/enrollments.ts';
import { memorySupport } from '#test/functions/fakes/support.ts';
import { memoryUsers } from '#test/functions/fakes/users.ts';

const HOUR = 3_600_000;

/** Three creators (Pro, Starter on trial, never subscribed), an admin, and everything the support use cases need. */
const world = () => {
  const mailQueue = memoryMailQueue();
  const billing = memoryBilling();
  billing.seedSubscription(storedSubscription({ userId: 'pro', subscriptionId: 'sub_pro', customerId: 'cus_pro', status: 'active', tier: 'pro', trialEnd: null }));
  billing.seedSubscription(storedSubscription({ userId: 'starter', subscriptionId: 'sub_st', customerId: 'cus_st' }));
  const users = memoryUsers([creator({ id: 'pro', email: 'pro@example.com' }), creator({ id: 'starter', email: 'starter@example.com' }), creator({ id: 'none', email: 'none@example.com' })]);
  const d = {
    support: memorySupport(mailQueue),
    billing,
    users,
    mailer: memoryMailer(),
    mailQueue,
    clock: testClock('2026-11-21T09:00:00.000Z'),
    ids: sequentialIds('sr'),
    appOrigin: APP_ORIGIN,
    requestIdFor: (creatorId: string, key: string) => `key:${creatorId}:${key}`,
    replyIdFor: (requestId: string, key: string) => `reply:${requestId}:${key}`,
    log: () => {},
    logError: () => {},
    work: async () => {},
  };
  return d;
};
type World = ReturnType<typeof world>;

const ask = (d: World, creatorId: string, subject = 'Help', idempotencyKey?: string) =>
  createSupportRequest(d, { creatorId, body: { subject, body: `${subject}: details` }, ...(idempotencyKey ? { idempotencyKey } : {}) });

describe('a creator asks for help', () => {
  it("is 'priority' on Pro, 'standard' on a Starter trial and without any plan: everyone may ask", async () => {
    const d = world();
    const pro = await ask(d, 'pro', 'Refund question');
    expect(pro).toEqual({ id: pro.id, subject: 'Refund question', status: 'open', priority: 'priority', createdAt: '2026-11-21T09:00:00.000Z' });
    expect((await ask(d, 'starter')).priority).toBe('standard');
    expect((await ask(d, 'none')).priority).toBe('standard');
  });

  it('keeps the priority it was asked with: a Pro plan that ends later does not change an open request', async () => {
    const d = world();
    const asked = await ask(d, 'pro');
    d.billing.seedSubscription(storedSubscription({ userId: 'pro', subscriptionId: 'sub_pro', customerId: 'cus_pro', status: 'canceled', tier: 'pro', trialEnd: null }));
    expect((await ask(d, 'pro', 'After the plan ended')).priority).toBe('standard');
    const inbox = await adminSupportInbox(d, { status: 'open' });
    expect(inbox.items.find((r) => r.id === asked.id)?.priority).toBe('priority');
  });

  it(`opens at most ${SUPPORT_REQUESTS_PER_DAY} requests a day (429 RATE_LIMITED, nothing stored), and again the next day`, async () => {
    const d = world();
    for (let i = 0; i < SUPPORT_REQUESTS_PER_DAY; i++) await ask(d, 'starter', `Question ${i}`);
    const refused = await ask(d, 'starter', 'One too many').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('RATE_LIMITED');
    expect(d.support.requests.size).toBe(SUPPORT_REQUESTS_PER_DAY);
    // Another creator is not held back by this one.
    await expect(ask(d, 'pro')).resolves.toMatchObject({ status: 'open' });
    d.clock.advance(24 * HOUR);
    await expect(ask(d, 'starter', 'Next day')).resolves.toMatchObject({ status: 'open' });
  });

  it('with an Idempotency-Key, a retry answers the first request and takes no second one of the day', async () => {
    const d = world();
    const first = await ask(d, 'pro', 'Once', 'retry-key-1');
    const again = await ask(d, 'pro', 'Once', 'retry-key-1');
    expect(again).toEqual(first);
    expect(d.support.requests.size).toBe(1);
    expect(d.support.days.get('pro#2026-11-21')).toBe(1);
    // The same key with another message is another intent: 409, nothing made.
    await expect(ask(d, 'pro', 'Something else', 'retry-key-1')).rejects.toBeInstanceOf(ConflictError);
    expect(d.support.requests.size).toBe(1);
  });

  it('refuses an empty or too long subject or message with a message that says what is wrong', () => {
    const blank = createSupportRequestBody.safeParse({ subject: '   ', body: 'x' });
    expect(blank.success).toBe(false);
    expect(blank.error?.issues[0]?.message).toBe('Write a subject.');
    const long = createSupportRequestBody.safeParse({ subject: 'x'.repeat(201), body: 'x' });
    expect(long.error?.issues[0]?.message).toBe('A subject is at most 200 characters.');
    expect(createSupportRequestBody.safeParse({ subject: 'x'.repeat(200), body: 'y'.repeat(10_000) }).success).toBe(true);
    expect(createSupportRequestBody.safeParse({ subject: 'x', body: 'y'.repeat(10_001) }).error?.issues[0]?.message).toBe('A message is at most 10,000 characters.');
    expect(createSupportRequestBody.safeParse({ subject: 'x', body: 'y', priority: 'priority' }).success).toBe(false);
    expect(supportReplyBody.safeParse({ body: '' }).success).toBe(false);
  });
});

describe("the creator's requests", () => {
  it('are their own only, newest first, each with its replies as a thread', async () => {
    const d = world();
    const older = await ask(d, 'starter', 'Older');
    d.clock.advance(HOUR);
    const newer = await ask(d, 'starter', 'Newer');
    await ask(d, 'pro', 'Not theirs');
    d.clock.advance(HOUR);
    await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: older.id, body: { body: 'Here is how.' } });
    const list = await listSupportRequests(d, 'starter');
    expect(list.items.map((r) => r.subject)).toEqual(['Newer', 'Older']);
    expect(list.items[0]).toMatchObject({ id: newer.id, body: 'Newer: details', replies: [], closedAt: null });
    expect(list.items[1]?.replies).toEqual([{ body: 'Here is how.', at: '2026-11-21T11:00:00.000Z', from: 'support' }]);
    expect(list.nextCursor).toBeNull();
  });

  it('page at a time, 20 to a page', async () => {
    const d = world();
    for (let i = 0; i < 25; i++) {
      d.clock.advance(60_000);
      await ask(d, 'none', `Q${i}`);
      d.clock.advance(24 * HOUR);
    }
    const first = await listSupportRequests(d, 'none');
    expect(first.items).toHaveLength(20);
    const second = await listSupportRequests(d, 'none', first.nextCursor!);
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((r) => r.id)).size).toBe(25);
  });
});

describe("the admin's inbox", () => {
  it('lists open requests priority first, then oldest first; closed ones apart', async () => {
    const d = world();
    const oldStandard = await ask(d, 'starter', 'Old standard');
    d.clock.advance(HOUR);
    const oldPriority = await ask(d, 'pro', 'Old priority');
    d.clock.advance(HOUR);
    const newStandard = await ask(d, 'none', 'New standard');
    d.clock.advance(HOUR);
    const newPriority = await ask(d, 'pro', 'New priority');
    await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: newStandard.id, body: { body: 'Done.', close: true } });
    const open = await adminSupportInbox(d, { status: 'open' });
    expect(open.items.map((r) => r.id)).toEqual([oldPriority.id, newPriority.id, oldStandard.id]);
    expect(open.items[0]).toMatchObject({ creatorId: 'pro', creatorEmail: 'pro@example.com', priority: 'priority' });
    const closed = await adminSupportInbox(d, { status: 'closed' });
    expect(closed.items.map((r) => [r.id, r.status, r.closedAt])).toEqual([[newStandard.id, 'closed', '2026-11-21T12:00:00.000Z']]);
  });
});

describe('an admin replies', () => {
  it('writes the reply and its email together, emails the creator with a link to their Support page, and can close the request', async () => {
    const d = world();
    const asked = await ask(d, 'pro', 'Where is my payout?');
    d.clock.advance(2 * HOUR);
    const replied = await replySupportRequest(d, { actor: { id: 'admin-1', email: 'admin-1@example.com' }, requestId: asked.id, body: { body: 'It left today.\n\nIt lands in 2 days.', close: true } });
    expect(replied).toMatchObject({ id: asked.id, status: 'closed', closedAt: '2026-11-21T11:00:00.000Z', replies: [{ body: 'It left today.\n\nIt lands in 2 days.', from: 'support' }] });
    expect(d.support.requests.get(asked.id)?.replies[0]?.by).toBe('admin-1');
    expect(d.mailer.sent).toHaveLength(1);
    const mail = d.mailer.sent[0]!;
    expect(mail.to).toBe('pro@example.com');
    expect(mail.subject).not.toContain('payout');
    expect(mail.text).toContain('It left today.\n\nIt lands in 2 days.');
    expect(mail.text).toContain(`${APP_ORIGIN}${SUPPORT_PAGE_PATH}`);
    expect(mail.html).toContain(`href="${APP_ORIGIN}${SUPPORT_PAGE_PATH}"`);
    // Sent, so off the queue.
    expect(d.mailQueue.queued).toHaveLength(0);
    // On the audit log, with the reply: who answered which request.
    expect(d.support.audit).toEqual([
      {
        id: d.support.requests.get(asked.id)?.replies[0]?.id,
        at: '2026-11-21T11:00:00.000Z',
        actor: { id: 'admin-1', email: 'admin-1@example.com' },
        action: 'support-replied',
        target: { kind: 'support-request', id: asked.id, email: 'pro@example.com' },
        details: { subject: 'Where is my payout?', closed: 'yes' },
      },
    ]);
  });

  it('with an Idempotency-Key, a retried reply (its answer lost) is one reply and one email, even after it closed the request', async () => {
    const d = world();
    const asked = await ask(d, 'pro');
    const first = await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: asked.id, body: { body: 'Done.', close: true }, idempotencyKey: 'reply-key-1' });
    const again = await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: asked.id, body: { body: 'Done.', close: true }, idempotencyKey: 'reply-key-1' });
    expect(again).toEqual(first);
    expect(d.support.requests.get(asked.id)?.replies).toHaveLength(1);
    expect(d.mailer.sent).toHaveLength(1);
    // Another key is another reply: refused on the closed request.
    await expect(replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: asked.id, body: { body: 'Done.' }, idempotencyKey: 'reply-key-2' })).rejects.toThrow(SUPPORT_REQUEST_CLOSED);
  });

  it("sends to the creator's address of today", async () => {
    const d = world();
    const asked = await ask(d, 'starter');
    const user = (await d.users.getUser('starter'))!;
    d.users.getUser = async (id) => (id === 'starter' ? { ...user, email: 'new-address@example.com' } : undefined);
    await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: asked.id, body: { body: 'Hello' } });
    expect(d.mailer.sent.map((m) => m.to)).toEqual(['new-address@example.com']);
  });

  it('loses no email when SES fails: it stays queued and the mail sender sends it', async () => {
    const d = world();
    const asked = await ask(d, 'pro');
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('SES down');
    });
    const replied = await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: asked.id, body: { body: 'Answer' } });
    expect(replied.replies).toHaveLength(1);
    expect(d.mailQueue.queued).toHaveLength(1);
    expect(await sendQueuedMail(d)).toMatchObject({ sent: 1 });
    expect(d.mailer.sent.map((m) => m.to)).toEqual(['pro@example.com']);
    expect(d.mailQueue.queued).toHaveLength(0);
  });

  it('is 404 for no such request, 409 on a closed one or a full thread, and 409 when another reply got there first (one email only)', async () => {
    const d = world();
    await expect(replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: 'missing', body: { body: 'x' } })).rejects.toBeInstanceOf(NotFoundError);

    const closed = await ask(d, 'pro', 'Closed');
    await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: closed.id, body: { body: 'Bye', close: true } });
    await expect(replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: closed.id, body: { body: 'Again' } })).rejects.toThrow(SUPPORT_REQUEST_CLOSED);

    const full = await ask(d, 'pro', 'Long');
    for (let i = 0; i < SUPPORT_REPLIES_MAX; i++) await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: full.id, body: { body: `Reply ${i}` } });
    await expect(replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: full.id, body: { body: 'One more' } })).rejects.toThrow(SUPPORT_THREAD_FULL);

    const raced = await ask(d, 'starter', 'Raced');
    const sentBefore = d.mailer.sent.length;
    d.support.before('reply', async (call) => {
      if (call === 1 + 1 + SUPPORT_REPLIES_MAX) await d.support.reply({ requestId: raced.id, seenReplies: 0, reply: { id: 'other', body: 'Other admin', at: '2026-11-21T09:00:00.000Z', from: 'support', by: 'admin-2' }, email: { id: 'm', to: 'x', subject: 's', text: 't', html: 'h', queuedAt: '2026-11-21T09:00:00.000Z', dueAt: '2026-11-21T09:00:00.000Z', tries: 0 } });
    });
    const lost = await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: raced.id, body: { body: 'Mine' } }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(ConflictError);
    expect((lost as ConflictError).message).toBe(SUPPORT_REQUEST_CHANGED);
    expect(d.mailer.sent.length).toBe(sentBefore);
    expect(d.support.requests.get(raced.id)?.replies.map((r) => r.body)).toEqual(['Other admin']);
  });
});

describe('the creator adds to their request', () => {
  it("as 'you' in their thread, in order with support's replies, emailing nobody; the inbox shows it under the request", async () => {
    const d = world();
    const asked = await ask(d, 'starter', 'Upload fails');
    d.clock.advance(HOUR);
    await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: asked.id, body: { body: 'Which browser?' } });
    d.clock.advance(HOUR);
    const thread = await followUpSupportRequest(d, { creatorId: 'starter', requestId: asked.id, body: { body: 'Firefox 140.' } });
    expect(thread.replies).toEqual([
      { body: 'Which browser?', at: '2026-11-21T10:00:00.000Z', from: 'support' },
      { body: 'Firefox 140.', at: '2026-11-21T11:00:00.000Z', from: 'you' },
    ]);
    expect((await listSupportRequests(d, 'starter')).items[0]?.replies.map((r) => r.from)).toEqual(['support', 'you']);
    expect((await adminSupportInbox(d, { status: 'open' })).items[0]?.replies.at(-1)).toMatchObject({ body: 'Firefox 140.', from: 'you' });
    expect(d.mailer.sent).toHaveLength(1);
    expect(d.mailQueue.queued).toHaveLength(0);
  });

  it('with an Idempotency-Key, a retried message is added once', async () => {
    const d = world();
    const asked = await ask(d, 'starter');
    await followUpSupportRequest(d, { creatorId: 'starter', requestId: asked.id, body: { body: 'Detail' }, idempotencyKey: 'k-1' });
    const again = await followUpSupportRequest(d, { creatorId: 'starter', requestId: asked.id, body: { body: 'Detail' }, idempotencyKey: 'k-1' });
    expect(again.replies).toHaveLength(1);
    expect(d.support.requests.get(asked.id)?.replies).toHaveLength(1);
  });

  it("is 404 on another creator's request or none, and 409 once it is closed", async () => {
    const d = world();
    const asked = await ask(d, 'pro');
    await expect(followUpSupportRequest(d, { creatorId: 'starter', requestId: asked.id, body: { body: 'Mine now' } })).rejects.toBeInstanceOf(NotFoundError);
    await expect(followUpSupportRequest(d, { creatorId: 'pro', requestId: 'missing', body: { body: 'x' } })).rejects.toBeInstanceOf(NotFoundError);
    expect(d.support.requests.get(asked.id)?.replies).toEqual([]);
    await replySupportRequest(d, { actor: { id: 'admin', email: 'admin@example.com' }, requestId: asked.id, body: { body: 'Done', close: true } });
    await expect(followUpSupportRequest(d, { creatorId: 'pro', requestId: asked.id, body: { body: 'One more thing' } })).rejects.toThrow(SUPPORT_REQUEST_CLOSED_FOR_YOU);
  });
});

describe('the reply email', () => {
  it("keeps the creator's subject out of its subject, escapes it in HTML, and keeps the reply's lines in text", () => {
    const mail = supportReplyEmail({ subject: '<b>Broken</b>\r\nBcc: x', reply: 'Line 1\nLine <2>', closed: false, link: 'https://app.example/dashboard/creator/support' });
    expect(mail.subject).toBe('Course Platform support answered your request');
    expect(mail.html).toContain('&lt;b&gt;Broken&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Broken');
    expect(mail.html).toContain('Line 1<br>Line &lt;2&gt;');
    expect(mail.text).toContain('"<b>Broken</b> Bcc: x"');
    expect(mail.text).toContain('Line 1\nLine <2>');
  });

  it('a cursor that is not a page of this list is 400', async () => {
    const d = world();
    await expect(listSupportRequests(d, 'pro', 'not-a-cursor')).rejects.toBeInstanceOf(ValidationError);
  });
});

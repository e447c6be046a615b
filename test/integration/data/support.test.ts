import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '#core/errors.ts';
import type { QueuedMail } from '#core/ports.ts';
import type { StoredSupportRequest } from '#core/support/ports.ts';
import { dynamoMailQueue, mailQueueKey } from '#data/mail-queue.ts';
import { dynamoSupport, supportKeys } from '#data/support.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const request = (over: Partial<StoredSupportRequest> & Pick<StoredSupportRequest, 'id' | 'creatorId' | 'createdAt'>): StoredSupportRequest => ({
  creatorEmail: 'ann@example.com',
  subject: 'Help',
  body: 'Please',
  status: 'open',
  priority: 'standard',
  closedAt: null,
  replies: [],
  ...over,
});

// Held far in the future, so the local cloud's mail sender leaves these emails alone while the test reads them.
const email = (id: string): QueuedMail => ({ id, to: 'ann@example.com', subject: 'Answered', text: 't', html: 'h', queuedAt: '2999-01-01T00:00:00.000Z', dueAt: '2999-01-01T00:00:00.000Z', tries: 1 });

describe('dynamoSupport', () => {
  it('creates a request once per id, takes one of the day cap with each, and refuses past the cap writing nothing', async () => {
    const repo = dynamoSupport();
    const creatorId = unique('creator');
    const first = request({ id: unique('sr'), creatorId, createdAt: '2026-11-21T09:00:00.000Z' });
    expect(await repo.create(first, { day: '2026-11-21', cap: 2 })).toBe('created');
    expect(await repo.create(first, { day: '2026-11-21', cap: 2 })).toBe('exists');
    expect(await repo.get(first.id)).toEqual(first);
    expect(await repo.create(request({ id: unique('sr'), creatorId, createdAt: '2026-11-21T09:01:00.000Z' }), { day: '2026-11-21', cap: 2 })).toBe('created');
    const third = request({ id: unique('sr'), creatorId, createdAt: '2026-11-21T09:02:00.000Z' });
    expect(await repo.create(third, { day: '2026-11-21', cap: 2 })).toBe('rate-limited');
    expect(await repo.get(third.id)).toBeUndefined();
    expect(await rawItem(supportKeys.day(creatorId, '2026-11-21'))).toMatchObject({ n: 2, type: 'SupportDay' });
    expect(await repo.create(third, { day: '2026-11-22', cap: 2 })).toBe('created');
  });

  it('takes at most the cap under concurrent requests', async () => {
    const repo = dynamoSupport();
    const creatorId = unique('creator');
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => repo.create(request({ id: unique('sr'), creatorId, createdAt: `2026-11-21T10:0${i}:00.000Z` }), { day: '2026-11-21', cap: 3 })));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(3);
    expect((await repo.pageByCreator(creatorId, { limit: 20 })).items).toHaveLength(3);
  });

  it("lists a creator's requests newest first, a page at a time; a cursor of another list is 400", async () => {
    const repo = dynamoSupport();
    const creatorId = unique('creator');
    const ids = [unique('sr'), unique('sr'), unique('sr')];
    for (const [i, id] of ids.entries()) await repo.create(request({ id, creatorId, createdAt: `2026-11-2${i}T09:00:00.000Z` }), { day: `2026-11-2${i}`, cap: 5 });
    const first = await repo.pageByCreator(creatorId, { limit: 2 });
    expect(first.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const second = await repo.pageByCreator(creatorId, { cursor: first.nextCursor!, limit: 2 });
    expect(second.items.map((r) => r.id)).toEqual([ids[0]]);
    await expect(repo.pageByCreator(unique('creator'), { cursor: first.nextCursor!, limit: 2 })).rejects.toBeInstanceOf(ValidationError);
    await expect(repo.pageByStatus('open', { cursor: first.nextCursor!, limit: 2 })).rejects.toBeInstanceOf(ValidationError);
  });

  it('serves the inbox priority first, then oldest first, from its index; closing moves a request to the closed list', async () => {
    const repo = dynamoSupport();
    const creatorId = unique('creator');
    // Far in the past: before anything else in the shared table's inbox.
    const made = [
      request({ id: unique('sr'), creatorId, createdAt: '2001-01-01T10:00:00.000Z', priority: 'standard' }),
      request({ id: unique('sr'), creatorId, createdAt: '2001-01-01T11:00:00.000Z', priority: 'priority' }),
      request({ id: unique('sr'), creatorId, createdAt: '2001-01-01T09:00:00.000Z', priority: 'standard' }),
      request({ id: unique('sr'), creatorId, createdAt: '2001-01-01T12:00:00.000Z', priority: 'priority' }),
    ];
    for (const r of made) await repo.create(r, { day: '2001-01-01', cap: 10 });
    const mine = async (status: 'open' | 'closed') => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await repo.pageByStatus(status, { cursor, limit: 2 });
        seen.push(...page.items.filter((r) => r.creatorId === creatorId).map((r) => r.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    expect(await mine('open')).toEqual([made[1]!.id, made[3]!.id, made[2]!.id, made[0]!.id]);

    const reply = { id: unique('reply'), body: 'Answer', at: '2001-01-02T00:00:00.000Z', from: 'support' as const, by: 'admin' };
    const mail = email(unique('mail'));
    expect(await repo.reply({ requestId: made[1]!.id, seenReplies: 0, reply, closedAt: reply.at, email: mail })).toBe('replied');
    expect(await repo.get(made[1]!.id)).toMatchObject({ status: 'closed', closedAt: reply.at, replies: [reply] });
    expect(await rawItem(mailQueueKey(mail))).toMatchObject({ id: mail.id, to: 'ann@example.com' });
    expect(await mine('open')).toEqual([made[3]!.id, made[2]!.id, made[0]!.id]);
    expect(await mine('closed')).toEqual([made[1]!.id]);
    await dynamoMailQueue().remove(mail);
  });

  it('replies only to an open request that still holds the replies the writer read; a refused reply queues no email', async () => {
    const repo = dynamoSupport();
    const r = request({ id: unique('sr'), creatorId: unique('creator'), createdAt: '2026-11-21T09:00:00.000Z' });
    await repo.create(r, { day: '2026-11-21', cap: 10 });
    const reply = (id: string) => ({ id, body: id, at: '2026-11-21T10:00:00.000Z', from: 'support' as const, by: 'admin' });
    const [a, b] = [email(unique('mail')), email(unique('mail'))];
    const outcomes = await Promise.all([repo.reply({ requestId: r.id, seenReplies: 0, reply: reply('a'), email: a }), repo.reply({ requestId: r.id, seenReplies: 0, reply: reply('b'), email: b })]);
    expect([...outcomes].sort()).toEqual(['changed', 'replied']);
    expect((await repo.get(r.id))?.replies).toHaveLength(1);
    const queued = [await rawItem(mailQueueKey(a)), await rawItem(mailQueueKey(b))].filter(Boolean);
    expect(queued).toHaveLength(1);
    expect(await repo.reply({ requestId: unique('missing'), seenReplies: 0, reply: reply('c'), email: email(unique('mail')) })).toBe('changed');
    // A creator's own message: no email with it.
    expect(await repo.reply({ requestId: r.id, seenReplies: 1, reply: { ...reply('d'), from: 'you', by: r.creatorId } })).toBe('replied');
    expect((await repo.get(r.id))?.replies.map((x) => x.from)).toEqual(['support', 'you']);
    await dynamoMailQueue().remove(a);
    await dynamoMailQueue().remove(b);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { purchaseReceiptEmail } from '#core/enrollments/invitation-email.ts';
import { dynamoMailQueue, mailQueueKey, mailQueuePut } from '#data/mail-queue.ts';
import { transact } from '#data/table.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

describe('the mail queue (DynamoDB Local)', () => {
  it('gives the due emails oldest first, moves one for exactly one sender, and removes it', async () => {
    const queue = dynamoMailQueue();
    const id = unique('mail');
    // Due "in 2000": ahead of any other test's, and long before now.
    const mail = { id, to: `${id}@example.com`, subject: 'Your purchase: Knots', text: 'Thanks', html: '<p>Thanks</p>', queuedAt: '2000-01-01T00:00:00.000Z', dueAt: '2000-01-01T00:00:00.000Z', tries: 0 };
    await transact([mailQueuePut(mail)]);
    expect((await queue.due('2000-01-01T00:00:00.000Z', 5))[0]).toEqual(mail);
    expect(await queue.due('1999-12-31T23:59:59.999Z', 5)).not.toContainEqual(mail);

    const held = { ...mail, dueAt: '2999-01-01T00:00:00.000Z', tries: 1 };
    const moves = await Promise.all([queue.move(mail, held), queue.move(mail, { ...held, tries: 2 })]);
    expect(moves.filter(Boolean)).toHaveLength(1);
    const now = new Date().toISOString();
    expect((await queue.due(now, 100)).map((m) => m.id), 'held: not due').not.toContain(id);
    expect((await queue.due('2999-01-01T00:00:00.000Z', 1000)).filter((m) => m.id === id)).toHaveLength(1);

    await queue.remove(moves[0] ? held : { ...held, tries: 2 });
    expect((await queue.due('2999-01-01T00:00:00.000Z', 1000)).map((m) => m.id)).not.toContain(id);
  });

  it('carries an email\'s files (a session\'s .ics) in its packed body, and reads a body without them as an email without files', async () => {
    const queue = dynamoMailQueue();
    const id = unique('ics');
    const attachments = [{ filename: 'session.ics', contentType: 'text/calendar; method=REQUEST', content: 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n' }];
    const mail = { id, to: `${id}@example.com`, subject: 'You are invited to a live session', text: 't', html: 'h', attachments, queuedAt: '2000-01-03T00:00:00.000Z', dueAt: '2000-01-03T00:00:00.000Z', tries: 0 };
    await transact([mailQueuePut(mail)]);
    expect(await rawItem(mailQueueKey(mail))).not.toHaveProperty('attachments');
    expect((await queue.due('2000-01-03T00:00:00.000Z', 100)).find((m) => m.id === id)).toEqual(mail);
    const plain = { ...mail, id: unique('plain'), attachments: undefined };
    await transact([mailQueuePut(plain)]);
    const read = (await queue.due('2000-01-03T00:00:00.000Z', 100)).find((m) => m.id === plain.id)!;
    expect(read).not.toHaveProperty('attachments');
    await queue.remove(mail);
    await queue.remove(plain);
  });

  it('reads an email queued before due times existed as due from when it was queued', async () => {
    const id = unique('mail');
    const old = { id, to: `${id}@example.com`, subject: 'Your purchase', text: 't', html: 'h', queuedAt: '2000-01-01T00:00:01.000Z', tries: 3 };
    await putRaw({ pk: 'MAILQUEUE', sk: `${old.queuedAt}#${id}`, type: 'QueuedMail', ...old });
    const queue = dynamoMailQueue();
    const read = (await queue.due('2000-01-01T00:00:01.000Z', 50)).find((m) => m.id === id)!;
    expect(read).toEqual({ ...old, dueAt: old.queuedAt });
    await queue.remove(read);
    expect((await queue.due('2000-01-01T00:00:01.000Z', 50)).map((m) => m.id)).not.toContain(id);
  });

  it("keeps a receipt under 1 KB (one write unit): its text and html packed, read back as they were", async () => {
    const queue = dynamoMailQueue();
    const id = unique('receipt');
    const receipt = purchaseReceiptEmail({ appOrigin: 'https://courses.example.com', courseTitle: 'Knife skills for the home cook, from first cut to julienne', amount: 4900 });
    const mail = { id, to: `${id}@example.com`, ...receipt, queuedAt: '2000-01-02T00:00:00.000Z', dueAt: '2000-01-02T00:00:00.000Z', tries: 0 };
    expect(Buffer.byteLength(mail.text) + Buffer.byteLength(mail.html)).toBeGreaterThan(1024);
    await transact([mailQueuePut(mail)]);
    const stored = (await rawItem(mailQueueKey(mail)))!;
    expect(stored).not.toHaveProperty('text');
    expect(stored).not.toHaveProperty('html');
    // As DynamoDB sizes an item: attribute names and values (strings in UTF-8, binary as its bytes, numbers ~their digits).
    const size = Object.entries(stored).reduce((n, [name, v]) => n + Buffer.byteLength(name) + (v instanceof Uint8Array ? v.length : Buffer.byteLength(String(v))), 0);
    expect(size).toBeLessThan(1024);
    expect((await queue.due('2000-01-02T00:00:00.000Z', 100)).find((m) => m.id === id)).toEqual(mail);
    // Held and moved on by a sender, it stays whole.
    const held = { ...mail, dueAt: '2999-01-02T00:00:00.000Z', tries: 1 };
    expect(await queue.move(mail, held)).toBe(true);
    expect((await queue.due('2999-01-02T00:00:00.000Z', 1000)).find((m) => m.id === id)).toEqual(held);
    await queue.remove(held);
  });
});

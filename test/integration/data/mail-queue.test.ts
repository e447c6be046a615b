import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoMailQueue } from '#data/mail-queue.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

describe('the mail queue (DynamoDB Local)', () => {
  it('keeps an email until exactly one sender takes it, oldest first, and a re-queue replaces it', async () => {
    const queue = dynamoMailQueue();
    const id = unique('mail');
    const mail = { id, to: `${id}@example.com`, subject: 'Your purchase: Knots', text: 'Thanks', html: '<p>Thanks</p>', queuedAt: '2000-01-01T00:00:00.000Z', tries: 0 };
    await queue.queue(mail);
    await queue.queue({ ...mail, tries: 1 });
    // The oldest first: queued "in 2000", it is ahead of any other test's.
    expect((await queue.waiting(5))[0]).toEqual({ ...mail, tries: 1 });
    const takes = await Promise.all([queue.take(mail), queue.take(mail)]);
    expect(takes.filter(Boolean)).toHaveLength(1);
    expect((await queue.waiting(100)).map((m) => m.id)).not.toContain(id);
  });
});

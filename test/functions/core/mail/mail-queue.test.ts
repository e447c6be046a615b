import { describe, expect, it } from 'vitest';
import { MAIL_QUEUE_TRIES, sendOrQueue, sendQueuedMail } from '#core/mail/mail-queue.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryMailer, memoryMailQueue } from '#test/functions/fakes/enrollments.ts';

const receipt = { to: 'ann@example.com', subject: 'Your purchase: Knots', text: 'Thanks', html: '<p>Thanks</p>' };

const world = () => {
  const logged: { message: string; fields: Record<string, unknown> }[] = [];
  return { mailer: memoryMailer(), mailQueue: memoryMailQueue(), ids: sequentialIds('mail'), clock: testClock(), log: (message: string, fields: Record<string, unknown>) => void logged.push({ message, fields }), logged };
};

const failing = (error = new Error('SES throttled')) => () => {
  throw error;
};

describe('an email nobody waits for', () => {
  it('is sent at once when SES takes it, and nothing is queued', async () => {
    const d = world();
    expect(await sendOrQueue(d, receipt, { orderId: 'o1' })).toBe('sent');
    expect(d.mailer.sent).toEqual([receipt]);
    expect(d.mailQueue.queued).toEqual([]);
  });

  it('is queued when its send fails, and sent once by the next sender runs', async () => {
    const d = world();
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('SES throttled');
    });
    expect(await sendOrQueue(d, receipt, { orderId: 'o1' })).toBe('queued');
    expect(d.mailQueue.queued).toEqual([{ ...receipt, id: expect.any(String), queuedAt: d.clock.now().toISOString(), tries: 0 }]);
    expect(d.logged).toEqual([{ message: 'email queued: its send failed', fields: { orderId: 'o1', error: 'Error: SES throttled' } }]);

    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 0 });
    expect(d.mailer.sent).toEqual([receipt]);
    expect(d.mailQueue.queued).toEqual([]);
  });

  it('is lost (and logged) only when its send and its queueing both fail', async () => {
    const d = world();
    d.mailer.before('send', failing());
    d.mailQueue.before('queue', failing(new Error('DynamoDB unavailable')));
    expect(await sendOrQueue(d, receipt, { orderId: 'o1' })).toBe('lost');
    expect(d.logged).toEqual([{ message: 'email lost: its send and its queueing failed', fields: { orderId: 'o1', error: 'Error: SES throttled', queueError: 'Error: DynamoDB unavailable' } }]);
  });
});

describe('the queued emails, each sender run', () => {
  it('go back with one more try while SES refuses them, and are given up (logged) after MAIL_QUEUE_TRIES', async () => {
    const d = world();
    await d.mailQueue.queue({ ...receipt, id: 'm1', queuedAt: '2026-11-26T10:00:00.000Z', tries: MAIL_QUEUE_TRIES - 2 });
    d.mailer.before('send', failing());
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 1, givenUp: 0 });
    expect(d.mailQueue.queued).toEqual([expect.objectContaining({ id: 'm1', tries: MAIL_QUEUE_TRIES - 1 })]);
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 1 });
    expect(d.mailQueue.queued).toEqual([]);
    expect(d.logged).toEqual([{ message: 'queued email given up', fields: expect.objectContaining({ id: 'm1', tries: MAIL_QUEUE_TRIES, error: 'Error: SES throttled' }) }]);
  });

  it('are sent by one run only when two runs meet', async () => {
    const d = world();
    await d.mailQueue.queue({ ...receipt, id: 'm1', queuedAt: '2026-11-26T10:00:00.000Z', tries: 0 });
    const [a, b] = await Promise.all([sendQueuedMail(d), sendQueuedMail(d)]);
    expect(a.sent + b.sent).toBe(1);
    expect(d.mailer.sent).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { MAIL_HOLD_MS, MAIL_QUEUE_TRIES, REMOVAL_WAITS_MS, heldMail, sendHeld, sendQueuedMail } from '#core/mail/mail-queue.ts';
import { ANSWER_MARGIN_MS, clientPolicies, worstCaseMs } from '#adapters/client-policy.ts';
import type { QueuedAccount, QueuedMail } from '#core/ports.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryMailer, memoryMailQueue } from '#test/functions/fakes/enrollments.ts';

const receipt = { to: 'ann@example.com', subject: 'Your purchase: Knots', text: 'Thanks', html: '<p>Thanks</p>' };

const world = () => {
  const logged: { message: string; fields: Record<string, unknown> }[] = [];
  const errors: { message: string; fields: Record<string, unknown> }[] = [];
  return {
    mailer: memoryMailer(),
    mailQueue: memoryMailQueue(),
    ids: sequentialIds('mail'),
    clock: testClock(),
    log: (message: string, fields: Record<string, unknown>) => void logged.push({ message, fields }),
    logError: (message: string, fields: Record<string, unknown>) => void errors.push({ message, fields }),
    work: async () => undefined,
    logged,
    errors,
  };
};

/** A receipt written with what it announces, held by its writer. */
const written = async (d: ReturnType<typeof world>) => {
  const held = heldMail(d, receipt);
  await d.mailQueue.write(held);
  return held;
};

const failing = () => () => {
  throw new Error('SES throttled');
};

describe('an email nobody waits for, written with what it announces', () => {
  it('is held by its writer, who sends it and removes it', async () => {
    const d = world();
    const held = heldMail(d, receipt);
    expect(held).toEqual({ ...receipt, id: expect.any(String), queuedAt: NOW, dueAt: new Date(Date.parse(NOW) + MAIL_HOLD_MS).toISOString(), tries: 1 });
    await d.mailQueue.write(held);
    expect(await sendQueuedMail(d), 'held: no sender run takes it').toEqual({ sent: 0, failed: 0, givenUp: 0 });
    expect(await sendHeld(d, held, { orderId: 'o1' })).toBe('sent');
    expect(d.mailer.sent).toEqual([receipt]);
    expect(d.mailQueue.queued).toEqual([]);
  });

  it('is sent with its files (a session\'s .ics) when it has any', async () => {
    const d = world();
    const attachments = [{ filename: 'session.ics', contentType: 'text/calendar; method=REQUEST', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR' }];
    const held = heldMail(d, { ...receipt, attachments });
    await d.mailQueue.write(held);
    expect(await sendHeld(d, held, {})).toBe('sent');
    expect(d.mailer.sent).toEqual([{ ...receipt, attachments }]);
  });

  it("goes under a branded school's name (issue 32), whether its writer or the sender job sends it", async () => {
    const d = world();
    const branded = { ...receipt, fromName: 'Clay & Kiln' };
    const held = heldMail(d, branded);
    await d.mailQueue.write(held);
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('SES throttled');
    });
    expect(await sendHeld(d, held, {})).toBe('failed');
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailer.sent).toEqual([branded]);
  });

  it('is due again at once when its send fails, and sent once by the next sender runs', async () => {
    const d = world();
    const held = await written(d);
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('SES throttled');
    });
    expect(await sendHeld(d, held, { orderId: 'o1' })).toBe('failed');
    expect(d.mailQueue.queued).toEqual([{ ...held, dueAt: NOW }]);
    expect(d.logged).toEqual([{ message: 'email send failed: due again', fields: { orderId: 'o1', id: held.id, tries: 1, error: 'Error: SES throttled' } }]);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 0 });
    expect(d.mailer.sent).toEqual([receipt]);
  });
});

const queued = (over: Partial<QueuedMail> = {}): QueuedMail => ({ ...receipt, id: 'm1', queuedAt: NOW, dueAt: NOW, tries: 0, ...over });

describe('the queued emails, each sender run', () => {
  it('drops, unsent, an email to a person who deleted their account since it was queued (issue 37 point 2)', async () => {
    const d = world();
    await d.mailQueue.write(queued({ id: 'm1', to: 'Ann@Example.com' }));
    await d.mailQueue.write(queued({ id: 'm2', to: 'bob@example.com' }));
    const asked: string[][] = [];
    const deletedRecipients = async (emails: readonly string[]) => {
      asked.push([...emails]);
      return new Set(['ann@example.com']);
    };
    expect(await sendQueuedMail({ ...d, deletedRecipients })).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(asked).toEqual([['ann@example.com', 'bob@example.com']]);
    expect(d.mailer.sent.map((m) => m.to)).toEqual(['bob@example.com']);
    expect(d.mailQueue.queued).toEqual([]);
  });

  it("makes no account for a paid order's buyer who deleted their account while the work was queued, and drops it (issue 37)", async () => {
    const d = world();
    const account = (id: string, email: string): QueuedAccount => ({ kind: 'buyer-account', id, orderId: `o-${id}`, email, queuedAt: NOW, dueAt: NOW, tries: 0 });
    await d.mailQueue.write(account('account:1', 'Ann@Example.com'));
    await d.mailQueue.write(account('account:2', 'bob@example.com'));
    const done: string[] = [];
    const deletedRecipients = async (emails: readonly string[]) => new Set(emails.filter((e) => e === 'ann@example.com'));
    await sendQueuedMail({ ...d, deletedRecipients, work: async (item) => void done.push(item.email) });
    expect(done).toEqual(['bob@example.com']);
    expect(d.mailQueue.queued).toEqual([]);
    expect(d.logged).toContainEqual({ message: 'queued work dropped: its buyer deleted their account', fields: expect.objectContaining({ orderId: 'o-account:1' }) });
    // A later run finds nothing of it to do again.
    await sendQueuedMail({ ...d, deletedRecipients, work: async (item) => void done.push(item.email) });
    expect(done).toEqual(['bob@example.com']);
  });

  it('come back due with one more try while SES refuses them, and are given up (logged) after MAIL_QUEUE_TRIES', async () => {
    const d = world();
    await d.mailQueue.write(queued({ tries: MAIL_QUEUE_TRIES - 1 }));
    d.mailer.before('send', failing());
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 1, givenUp: 0 });
    expect(d.mailQueue.queued).toEqual([queued({ tries: MAIL_QUEUE_TRIES })]);
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 1 });
    expect(d.mailQueue.queued).toEqual([]);
    expect(d.errors).toEqual([{ message: 'queued email given up', fields: expect.objectContaining({ id: 'm1', tries: MAIL_QUEUE_TRIES }) }]);
    expect(d.logged.map((l) => l.message), 'a failed try is a warning').toEqual(['email send failed: due again']);
  });

  it('are sent by one run only when two runs meet', async () => {
    const d = world();
    await d.mailQueue.write(queued());
    const [a, b] = await Promise.all([sendQueuedMail(d), sendQueuedMail(d)]);
    expect(a.sent + b.sent).toBe(1);
    expect(d.mailer.sent).toHaveLength(1);
  });

  it('wait while they are not due yet', async () => {
    const d = world();
    await d.mailQueue.write(queued({ dueAt: new Date(d.clock.now().getTime() + 1000).toISOString() }));
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 0 });
    d.clock.advance(1000);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
  });

  it('are not lost when a sender dies holding one: it is due again when its hold ends, and sent then', async () => {
    const d = world();
    await d.mailQueue.write(queued());
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('the function timed out');
    });
    // The send dies, and so does the return of the email (the database failing too): the hold keeps it.
    d.mailQueue.before('move', (call) => {
      if (call === 2) throw new Error('DynamoDB unavailable');
    });
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 1, givenUp: 0 });
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 0 });
    d.clock.advance(MAIL_HOLD_MS);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailer.sent).toEqual([receipt]);
    expect(d.mailQueue.queued).toEqual([]);
  });

  it('an email sent but not removed is sent again when its hold ends (at least once), and said so', async () => {
    const d = world();
    const held = await written(d);
    d.mailQueue.before('remove', (call) => {
      if (call === 1) throw new Error('DynamoDB unavailable');
    });
    expect(await sendHeld(d, held, { email: 'certificate' })).toBe('sent');
    expect(d.logged).toEqual([{ message: 'sent email not removed: sent again when its hold ends', fields: expect.objectContaining({ email: 'certificate' }) }]);
    d.clock.advance(MAIL_HOLD_MS);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailer.sent).toEqual([receipt, receipt]);
  });

  it('a job that sent an email waits for the table to come back to remove it, so it is not sent again', async () => {
    const d = world();
    const held = await written(d);
    const waited: number[] = [];
    d.mailQueue.before('remove', (call) => {
      if (call <= REMOVAL_WAITS_MS.length) throw new Error('DynamoDB unavailable');
    });
    expect(await sendHeld({ ...d, sleep: async (ms) => void waited.push(ms) }, held, { email: 'certificate' })).toBe('sent');
    expect(waited).toEqual([...REMOVAL_WAITS_MS]);
    expect(d.logged).toEqual([]);
    d.clock.advance(MAIL_HOLD_MS);
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 0 });
    expect(d.mailer.sent).toEqual([receipt]);
  });

  it('are held longer than the writes that hold one, its send and its removal can take at worst', () => {
    const { dynamodb, ses } = clientPolicies;
    const removal = (1 + REMOVAL_WAITS_MS.length) * worstCaseMs(dynamodb) + REMOVAL_WAITS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(MAIL_HOLD_MS).toBeGreaterThan(3 * worstCaseMs(dynamodb) + worstCaseMs(ses) + removal + ANSWER_MARGIN_MS);
  });
});

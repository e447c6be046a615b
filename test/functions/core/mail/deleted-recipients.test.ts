import { describe, expect, it } from 'vitest';
import { MailRefusedError } from '#core/errors.ts';
import { bulkMailerWithoutDeleted, mailerWithoutDeleted, RECIPIENT_DELETED } from '#core/mail/deleted-recipients.ts';
import type { BulkMailer, MailMessage } from '#core/ports.ts';

/** ann@example.com deleted her account; the check answers in lower case, as the table keys it. */
const deleted = async (emails: readonly string[]) => new Set(emails.map((e) => e.toLowerCase()).filter((e) => e === 'ann@example.com'));
const message = (to: string): MailMessage => ({ to, subject: 'Your certificate', text: 'Well done.', html: '<p>Well done.</p>' });

describe('mail to a deleted account, at the SES ports', () => {
  it('drops an email to a deleted account (whatever the case of its address) and sends the others, logging no address', async () => {
    const sent: string[] = [];
    const logged: Record<string, unknown>[] = [];
    const mailer = mailerWithoutDeleted({ send: async (m) => void sent.push(m.to) }, deleted, (_message, fields) => void logged.push(fields));
    await mailer.send(message('Ann@Example.com'));
    await mailer.send(message('bob@example.com'));
    expect(sent).toEqual(['bob@example.com']);
    expect(JSON.stringify(logged)).not.toContain('example.com');
    expect(logged).toEqual([{ subject: 'Your certificate' }]);
  });

  it("leaves a deleted account's destinations out of a bulk send, answering each entry in order, and sends no empty batch", async () => {
    const batches: string[][] = [];
    const bulk: BulkMailer = {
      sendBulk: async ({ entries }) => {
        batches.push(entries.map((e) => e.to));
        return entries.map((e) => ({ to: e.to, ok: e.to !== 'cy@example.com', ...(e.to === 'cy@example.com' ? { error: 'MessageRejected' } : {}) }));
      },
      maxSendRate: async () => 14,
      quota: async () => ({ maxSendRate: 14, left24Hours: 100 }),
    };
    const filtered = bulkMailerWithoutDeleted(bulk, deleted, () => undefined);
    const entries = ['bob@example.com', 'ANN@example.com', 'cy@example.com'].map((to) => ({ to, headers: [], data: {} }));
    expect(await filtered.sendBulk({ subject: 's', text: 't', html: 'h', entries })).toEqual([
      { to: 'bob@example.com', ok: true },
      { to: 'ANN@example.com', ok: false, error: RECIPIENT_DELETED },
      { to: 'cy@example.com', ok: false, error: 'MessageRejected' },
    ]);
    expect(batches).toEqual([['bob@example.com', 'cy@example.com']]);
    expect(await filtered.sendBulk({ subject: 's', text: 't', html: 'h', entries: [{ to: 'ann@example.com', headers: [], data: {} }] })).toEqual([{ to: 'ann@example.com', ok: false, error: RECIPIENT_DELETED }]);
    expect(batches).toHaveLength(1);
    expect(await filtered.maxSendRate()).toBe(14);
    expect(await filtered.quota?.()).toEqual({ maxSendRate: 14, left24Hours: 100 });
  });

  it('says nothing went when the check itself fails, so the senders send again rather than count the mail as sent', async () => {
    const unavailable = async (): Promise<ReadonlySet<string>> => {
      throw new Error('the table is unavailable');
    };
    const calls: string[] = [];
    const mailer = mailerWithoutDeleted({ send: async (m) => void calls.push(m.to) }, unavailable, () => undefined);
    await expect(mailer.send(message('bob@example.com'))).rejects.toBeInstanceOf(MailRefusedError);
    const bulk = bulkMailerWithoutDeleted(
      { sendBulk: async ({ entries }) => entries.map((e) => (calls.push(e.to), { to: e.to, ok: true })), maxSendRate: async () => 14 },
      unavailable,
      () => undefined,
    );
    await expect(bulk.sendBulk({ subject: 's', text: 't', html: 'h', entries: [{ to: 'bob@example.com', headers: [], data: {} }] })).rejects.toBeInstanceOf(MailRefusedError);
    expect(calls).toEqual([]);
  });
});

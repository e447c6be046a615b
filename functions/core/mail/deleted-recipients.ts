import { MailRefusedError } from '#core/errors.ts';
import type { BulkMailer, Mailer } from '#core/ports.ts';

/**
 * Mail to people who deleted their account (issue 37 point 2: "pending emails to them dropped"). Mail waits in many
 * places before it leaves: the mail queue, the automations' outbox, sequence entries, drip notices, live-session and
 * discussion mail, campaigns' pages of recipients, a stream's receipt, the leaders' weekly report. The deletion erases
 * what it can find of those, but a send already under way, or one whose source outlives the erasure, can still reach
 * SES. Every email the platform sends passes through one of the two SES ports (Mailer, BulkMailer), so the check is
 * made there, at the last moment: an address whose account was deleted, and that no account holds again since, gets
 * nothing (decision 0061).
 */

/** Which of these addresses (lower-cased) belong to a deleted account that nobody has signed up with again. */
export type DeletedRecipients = (emails: readonly string[]) => Promise<ReadonlySet<string>>;

/** What SES would have said of a destination it was never given: the campaign counts it as failed for good. */
export const RECIPIENT_DELETED = 'RECIPIENT_DELETED: the address belongs to a deleted account';

type Log = (message: string, fields: Record<string, unknown>) => void;

/**
 * The lookup, made before SES is called: when it fails (the table slow or unavailable), nothing has gone, and the
 * senders must know it. Their rule is that a send failing any other way than SES's refusal may have gone (a timeout),
 * so it is never sent again: a failed lookup thrown as it is would lose the mail (a campaign counted a whole batch as
 * sent). MailRefusedError says nothing went: the senders try again.
 */
const deletedAmong = async (deleted: DeletedRecipients, emails: readonly string[]): Promise<ReadonlySet<string>> => {
  try {
    return await deleted(emails);
  } catch (error) {
    throw new MailRefusedError('Nothing was sent: the check for deleted accounts failed.', { cause: error });
  }
};

/** The one-email port, dropping (without an error: the work that sent it is done) mail to a deleted account. */
export const mailerWithoutDeleted = (mailer: Mailer, deleted: DeletedRecipients, log: Log): Mailer => ({
  async send(message) {
    if ((await deletedAmong(deleted, [message.to])).has(message.to.toLowerCase())) {
      // The subject alone: the address is the deleted person's, and the log keeps no personal data.
      log('email dropped: its recipient deleted their account', { subject: message.subject });
      return;
    }
    await mailer.send(message);
  },
});

/**
 * The bulk port, leaving out the destinations of deleted accounts: each gets its result, in order, as SES's refusal
 * would be (not sent, not tried again); a batch of none of them is not sent at all.
 */
export const bulkMailerWithoutDeleted = (bulk: BulkMailer, deleted: DeletedRecipients, log: Log): BulkMailer => ({
  async sendBulk(message) {
    const gone = await deletedAmong(deleted, message.entries.map((entry) => entry.to));
    const kept = message.entries.filter((entry) => !gone.has(entry.to.toLowerCase()));
    if (kept.length < message.entries.length) log('bulk destinations dropped: their recipients deleted their account', { subject: message.subject, dropped: message.entries.length - kept.length });
    const results = kept.length > 0 ? await bulk.sendBulk({ ...message, entries: kept }) : [];
    let next = 0;
    return message.entries.map((entry) => (gone.has(entry.to.toLowerCase()) ? { to: entry.to, ok: false, error: RECIPIENT_DELETED } : results[next++]!));
  },
  maxSendRate: () => bulk.maxSendRate(),
  ...(bulk.quota ? { quota: () => bulk.quota!() } : {}),
});

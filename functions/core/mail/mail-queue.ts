import { inPool } from '#core/jobs/pace.ts';
import type { Clock, Ids, Mailer, MailMessage, MailQueue, QueuedAccount, QueuedItem, QueuedMail } from '#core/ports.ts';

/**
 * Emails nobody waits for (a receipt, a certificate, an affiliate's link): what they announce stands whether or not
 * they go, so their failure never fails the work; and they are not lost. Each is written in the mail queue in the
 * very transaction of what it announces, held by the writer (due MAIL_HOLD_MS later, one try under way), who sends
 * it and removes it, or makes it due again at once when the send fails; the mail sender job (every minute) sends what
 * is due the same way. A writer or sender that dies in between loses nothing: the email is due again when its hold ends
 * (decision 0026). At least once, as every single email (decision 0023): a send whose removal failed goes again.
 */
export interface MailLaterDeps {
  mailer: Mailer;
  mailQueue: Pick<MailQueue, 'move' | 'remove'>;
  ids: Ids;
  clock: Clock;
  log: (message: string, fields: Record<string, unknown>) => void;
  /**
   * Given by jobs (never by a request, whose caller waits): a sent email's removal that fails is tried again after
   * these waits (REMOVAL_WAITS_MS), so a table away for a few seconds (a restart, a throttling spike) does not make
   * a sent email due again.
   */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * How long a writer or sender holds an email it is sending: longer than what can come between the hold's time and
 * the removal at worst with the clients' timeouts and retries (adapters/client-policy.ts): up to three table calls
 * that write it (a paid order's two reads and its transaction), the send, the removal and a job's further tries of it
 * (REMOVAL_WAITS_MS; a unit test holds them so).
 */
export const MAIL_HOLD_MS = 70_000;
/** The waits before a job's further tries to remove an email it sent (`sleep` in MailLaterDeps): 7 s in all. */
export const REMOVAL_WAITS_MS = [1_000, 2_000, 4_000] as const;
/** Queued emails read per batch of the sender (its run goes on batch after batch until none is due). */
export const MAIL_QUEUE_BATCH = 25;
/** Sends of a queued email before it is given up (the job runs every minute: about an hour of SES refusing it). */
export const MAIL_QUEUE_TRIES = 60;

/**
 * How long a sender holds queued work (a new buyer's account, core/sales/buyer-account.ts): longer than a sender's
 * whole invocation (the mail sender's 10 s, any profile's 30 s), so no second sender makes the same account while one
 * is at it.
 */
export const WORK_HOLD_MS = 60_000;

const later = (clock: Clock, ms = MAIL_HOLD_MS) => new Date(clock.now().getTime() + ms).toISOString();

/** An email, not work (queued work has a `kind`). */
export const isQueuedMail = (item: QueuedItem): item is QueuedMail => !('kind' in item);

/**
 * A new email for the mail queue, due at once: written in the transaction of what it announces and sent by the sender
 * job (which the writer may start at once), not by the writer: a webhook answers without waiting on SES.
 */
export const dueMail = (deps: Pick<MailLaterDeps, 'ids' | 'clock'>, message: MailMessage): QueuedMail => ({
  ...message,
  id: deps.ids.newId(),
  queuedAt: deps.clock.now().toISOString(),
  dueAt: deps.clock.now().toISOString(),
  tries: 0,
});

/** A new email for the mail queue, held by its writer (who sends it once it is written: `sendHeld`). */
export const heldMail = (deps: Pick<MailLaterDeps, 'ids' | 'clock'>, message: MailMessage): QueuedMail => ({
  ...message,
  id: deps.ids.newId(),
  queuedAt: deps.clock.now().toISOString(),
  dueAt: later(deps.clock),
  tries: 1,
});

export type SenderDeps = Omit<MailLaterDeps, 'ids' | 'mailQueue'> & {
  mailQueue: MailQueue;
  /** An email given up is logged as an error; a failed try only as a warning (`log`). */
  logError: (message: string, fields: Record<string, unknown>) => void;
  /** Does queued work (a new buyer's account and invitation: core/sales/buyer-account.ts); throws to try again later. */
  work: (item: QueuedAccount) => Promise<void>;
  /**
   * Which of these addresses belong to accounts deleted since (their suppression's reason 'deleted', issue 37 point
   * 2): their pending emails are dropped at send time, never sent, and a paid order's queued buyer account is not
   * made for them. Absent: none is.
   */
  deletedRecipients?: (emails: readonly string[]) => Promise<ReadonlySet<string>>;
};

/**
 * Sends an email its caller holds, then removes it; when the send fails, makes it due again at once for the next
 * run. If that removal or that return fails, the hold ends in MAIL_HOLD_MS and it is due again all the same (sent
 * again, in the first case: at least once).
 */
export const sendHeld = async (deps: Omit<MailLaterDeps, 'ids'>, held: QueuedMail, about: Record<string, unknown>): Promise<'sent' | 'failed'> => {
  try {
    await deps.mailer.send({
      to: held.to,
      subject: held.subject,
      text: held.text,
      html: held.html,
      ...(held.attachments?.length ? { attachments: held.attachments } : {}),
      // A branded school's email (issue 32) leaves the queue under the school's name, as it would have at once.
      ...(held.fromName ? { fromName: held.fromName } : {}),
      // Marketing mail keeps its one-click unsubscribe headers (RFC 8058) when it leaves later.
      ...(held.headers?.length ? { headers: held.headers } : {}),
    });
  } catch (error) {
    deps.log('email send failed: due again', { ...about, id: held.id, tries: held.tries, error: String(error) });
    await deps.mailQueue.move(held, { ...held, dueAt: deps.clock.now().toISOString() }).catch(() => false);
    return 'failed';
  }
  await removeSent(deps, held, about);
  return 'sent';
};

/** A sent email off the queue: tried again after each of REMOVAL_WAITS_MS when the caller can wait (`sleep`). */
const removeSent = async (deps: Omit<MailLaterDeps, 'ids'>, held: QueuedMail, about: Record<string, unknown>) => {
  const waits = deps.sleep ? REMOVAL_WAITS_MS : [];
  for (let tried = 0; ; tried++) {
    try {
      await deps.mailQueue.remove(held);
      return;
    } catch (error) {
      if (tried >= waits.length) {
        deps.log('sent email not removed: sent again when its hold ends', { ...about, id: held.id, tries: tried + 1, error: String(error) });
        return;
      }
      await deps.sleep!(waits[tried]!);
    }
  }
};

/**
 * One batch of the sender job (core/mail/mail-sender.ts): the oldest items due by `upTo` (now unless given), at most
 * `limit`, each held (one sender gets it), sent and removed, or due again with one more try when the send fails; given
 * up (logged) once it failed MAIL_QUEUE_TRIES times. `concurrency` at once, each start waiting for `pace`, none started
 * once `timeUp()` (checked before each but the first): those stay due for the next. `read`: how many were due;
 * `started`: how many of them this batch took on. Queued work (a new buyer's account, issue 28) is held longer
 * (WORK_HOLD_MS), done by `work` and removed the same way; done, it counts as sent.
 */
export const sendQueuedBatch = async (
  deps: SenderDeps,
  opts: { upTo?: string; limit?: number; concurrency?: number; pace?: () => Promise<void>; timeUp?: () => boolean } = {},
): Promise<{ sent: number; failed: number; givenUp: number; read: number; started: number }> => {
  const outcome = { sent: 0, failed: 0, givenUp: 0 };
  const due = await deps.mailQueue.due(opts.upTo ?? deps.clock.now().toISOString(), opts.limit ?? MAIL_QUEUE_BATCH);
  // Whom each item is for: an email's recipient, or the buyer whose account queued work would make.
  const personOf = (item: QueuedItem): string => (isQueuedMail(item) ? item.to : item.email).toLowerCase();
  const deleted = deps.deletedRecipients ? await deps.deletedRecipients(due.map(personOf)) : new Set<string>();
  const started = await inPool(due, opts.concurrency ?? 1, opts.timeUp ?? (() => false), async (item) => {
    if (item.tries >= MAIL_QUEUE_TRIES) {
      await deps.mailQueue.remove(item);
      outcome.givenUp += 1;
      const about = isQueuedMail(item) ? { subject: item.subject } : { kind: item.kind, orderId: item.orderId };
      deps.logError(isQueuedMail(item) ? 'queued email given up' : 'queued work given up', { id: item.id, ...about, queuedAt: item.queuedAt, tries: item.tries });
      return;
    }
    if (isQueuedMail(item) && deleted.has(item.to.toLowerCase())) {
      // The person deleted their account after it was queued: it is dropped, not sent (and not counted as sent).
      await deps.mailQueue.remove(item);
      deps.log('queued email dropped: its recipient deleted their account', { id: item.id, queuedAt: item.queuedAt });
      return;
    }
    if (!isQueuedMail(item) && deleted.has(personOf(item))) {
      // A paid order's buyer who deleted their account since: no account is made again for them, nor enrolled (the
      // order stays as paid; it is the creator's to refund, as any buyer's who leaves).
      await deps.mailQueue.remove(item);
      deps.log('queued work dropped: its buyer deleted their account', { kind: item.kind, id: item.id, orderId: item.orderId, queuedAt: item.queuedAt });
      return;
    }
    if (isQueuedMail(item)) {
      await opts.pace?.();
      const held = { ...item, dueAt: later(deps.clock), tries: item.tries + 1 };
      if (!(await deps.mailQueue.move(item, held))) return;
      outcome[await sendHeld(deps, held, { email: 'queued' })] += 1;
      return;
    }
    const held = { ...item, dueAt: later(deps.clock, WORK_HOLD_MS), tries: item.tries + 1 };
    if (!(await deps.mailQueue.move(item, held))) return;
    outcome[await doHeld(deps, held)] += 1;
  });
  return { ...outcome, read: due.length, started };
};

/** One batch of the oldest due emails, one at a time (sendQueuedBatch with its defaults). */
export const sendQueuedMail = async (deps: SenderDeps): Promise<{ sent: number; failed: number; givenUp: number }> => {
  const { read: _read, started: _started, ...outcome } = await sendQueuedBatch(deps);
  return outcome;
};

/**
 * Does queued work the sender holds, then removes it; when it throws, makes it due again at once for the next run.
 * Work is idempotent (core/sales/buyer-account.ts): done again after a lost removal, it changes nothing.
 */
const doHeld = async (deps: SenderDeps, held: QueuedAccount): Promise<'sent' | 'failed'> => {
  try {
    await deps.work(held);
  } catch (error) {
    deps.log('queued work failed: due again', { kind: held.kind, id: held.id, orderId: held.orderId, tries: held.tries, error: String(error) });
    await deps.mailQueue.move(held, { ...held, dueAt: deps.clock.now().toISOString() }).catch(() => false);
    return 'failed';
  }
  await deps.mailQueue.remove(held).catch((error: unknown) => deps.log('queued work not removed: done again when its hold ends', { id: held.id, error: String(error) }));
  return 'sent';
};

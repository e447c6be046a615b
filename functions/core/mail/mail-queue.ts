import type { Clock, Ids, Mailer, MailMessage, MailQueue, QueuedMail } from '#core/ports.ts';

/**
 * Emails nobody waits for (a receipt, a certificate, an affiliate's link): what they announce stands whether or not
 * they go, so their failure never fails the work; and they are not lost: a failed send is queued, and the sender job
 * (every minute) sends it. At least once, as every single email (decision 0023): a send whose answer was lost may
 * have gone, and is queued all the same.
 */
export interface MailLaterDeps {
  mailer: Mailer;
  mailQueue: Pick<MailQueue, 'queue'>;
  ids: Ids;
  clock: Clock;
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** Sends `message` now, or queues it for the sender job; 'lost' only when the queue failed too (logged). */
export const sendOrQueue = async (deps: MailLaterDeps, message: MailMessage, about: Record<string, unknown>): Promise<'sent' | 'queued' | 'lost'> => {
  try {
    await deps.mailer.send(message);
    return 'sent';
  } catch (error) {
    try {
      await deps.mailQueue.queue({ ...message, id: deps.ids.newId(), queuedAt: deps.clock.now().toISOString(), tries: 0 });
      deps.log('email queued: its send failed', { ...about, error: String(error) });
      return 'queued';
    } catch (queueError) {
      deps.log('email lost: its send and its queueing failed', { ...about, error: String(error), queueError: String(queueError) });
      return 'lost';
    }
  }
};

/** Queued emails one run sends at most. */
export const MAIL_QUEUE_BATCH = 25;
/** Sends of a queued email before it is given up (the job runs every minute: about an hour of SES refusing it). */
export const MAIL_QUEUE_TRIES = 60;

/**
 * The sender job's share: the oldest queued emails, each taken off the queue (one run gets it), sent, and put back
 * with one more try when the send fails; given up (logged as an error) after MAIL_QUEUE_TRIES.
 */
export const sendQueuedMail = async (
  deps: { mailer: Mailer; mailQueue: MailQueue; log: (message: string, fields: Record<string, unknown>) => void },
): Promise<{ sent: number; failed: number; givenUp: number }> => {
  const outcome = { sent: 0, failed: 0, givenUp: 0 };
  for (const mail of await deps.mailQueue.waiting(MAIL_QUEUE_BATCH)) {
    if (!(await deps.mailQueue.take(mail))) continue;
    try {
      await deps.mailer.send({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      outcome.sent += 1;
    } catch (error) {
      const again: QueuedMail = { ...mail, tries: mail.tries + 1 };
      if (again.tries >= MAIL_QUEUE_TRIES) {
        outcome.givenUp += 1;
        deps.log('queued email given up', { id: mail.id, subject: mail.subject, queuedAt: mail.queuedAt, tries: again.tries, error: String(error) });
        continue;
      }
      outcome.failed += 1;
      await deps.mailQueue.queue(again);
    }
  }
  return outcome;
};

import { sendAutomationEmails, type SenderDeps as CampaignSenderDeps } from '#core/campaigns/campaigns.ts';
import { pacer, platformMailRate, sendRateOr1 } from '#core/jobs/pace.ts';
import type { SliceWork } from '#core/jobs/slices.ts';
import { MAIL_QUEUE_BATCH, sendQueuedBatch, type SenderDeps as QueueSenderDeps } from '#core/mail/mail-queue.ts';

/**
 * The mail sender job (issue 28; decision 0033): the platform's own emails apart from campaigns, on a run and a budget
 * of their own (campaigns have theirs): first the mail queue (receipts, certificates, affiliates' links whose first
 * send failed or whose writer died: decision 0026), then the automations' outbox (the welcome of a new creator, a
 * trial's reminder). Each drained until empty, slice after slice, at the platform's share of SES's rate.
 */
export interface MailSenderDeps extends QueueSenderDeps {
  /** The outbox's sender: the campaigns' bulk mailer, templates and unsubscribe key. */
  automations: CampaignSenderDeps;
  /** SES's MaxSendRate. */
  sendRate: () => Promise<number>;
  sleep: (ms: number) => Promise<void>;
}

/** Queued emails sent at once (each one SES call), their starts paced under the rate. */
export const MAIL_CONCURRENCY = 8;

interface SenderCursor {
  phase: 'queue' | 'outbox';
  /**
   * The run's horizon in the mail queue: emails due by its start. One whose send fails now is due again after it, so
   * the run never tries it twice: the next minute's run does.
   */
  upTo: string;
}

type Counts = { sent: number; failed: number; givenUp: number; automationsSent: number; automationsDropped: number };

/**
 * One slice: the mail queue in batches of MAIL_QUEUE_BATCH (each email held, sent and removed: as seen, exactly once,
 * by the queue's identity; at least once for SES), MAIL_CONCURRENCY at once; then the outbox a bulk send at a time
 * (each email taken off once). The time is checked before each email and each bulk send; the cursor carries the phase
 * and the run's horizon. An outbox SES refuses (its emails put back) ends the run: the next minute's tries again.
 */
export const sendPlatformMail =
  (deps: MailSenderDeps): SliceWork<Counts> =>
  async (slice, timeUp) => {
    const counts: Counts = { sent: 0, failed: 0, givenUp: 0, automationsSent: 0, automationsDropped: 0 };
    const at: SenderCursor = slice.cursor
      ? (JSON.parse(slice.cursor) as SenderCursor)
      : { phase: 'queue', upTo: new Date(deps.clock.now().getTime() - 1).toISOString() };
    const pace = pacer(platformMailRate(await sendRateOr1(deps.sendRate)), { now: () => Date.now(), sleep: deps.sleep });
    let worked = false;
    const more = () => ({ cursor: JSON.stringify(at), counts });
    if (at.phase === 'queue') {
      for (;;) {
        if (worked && timeUp()) return more();
        const batch = await sendQueuedBatch(deps, { upTo: at.upTo, limit: MAIL_QUEUE_BATCH, concurrency: MAIL_CONCURRENCY, pace, timeUp: () => timeUp() });
        counts.sent += batch.sent;
        counts.failed += batch.failed;
        counts.givenUp += batch.givenUp;
        worked ||= batch.read > 0;
        if (batch.started < batch.read) return more();
        if (batch.read < MAIL_QUEUE_BATCH) break;
      }
      at.phase = 'outbox';
    }
    for (;;) {
      if (worked && timeUp()) return more();
      const batch = await sendAutomationEmails({ ...deps.automations, sleep: deps.sleep }, { beforeSend: (count) => pace(count) }).catch((error: unknown) => {
        deps.log('outbox not sent: the next run tries again', { error: String(error) });
        return undefined;
      });
      if (!batch) return { counts };
      counts.automationsSent += batch.sent;
      counts.automationsDropped += batch.dropped;
      // Nothing taken: the outbox is empty (or another sender took what this one read).
      if (batch.sent + batch.dropped === 0) return { counts };
      worked = true;
    }
  };

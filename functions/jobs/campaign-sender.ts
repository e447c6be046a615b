import type { Context, ScheduledEvent } from 'aws-lambda';
import { sendAutomationEmails, sendPendingCampaigns } from '#core/campaigns/campaigns.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { campaignSenderStarter } from '#adapters/lambda-job-starter.ts';
import { senderDeps } from '#functions/composition/deps-campaigns.ts';
import { mailQueueSenderDeps } from '#functions/composition/deps-mail-queue.ts';
import { jobs } from '#functions/routes.ts';
import { invocation } from '#middleware/invocation.ts';

const job = jobs.find((j) => j.name === 'campaign-sender')!;

/**
 * Sends the queued emails (receipts and the like) and does the queued work (a paid order's new buyer's account and
 * invitation: the Connect webhook starts this job at once for it), the automations' waiting emails (the
 * welcome of a new creator), then the queued email campaigns; run by
 * EventBridge Scheduler every minute: each campaign continues from its last recorded batch until it is sent, this run
 * nears its timeout (the next run goes on) or another run holds it.
 */
export const handler = (event: Partial<ScheduledEvent> = {}, context?: Pick<Context, 'getRemainingTimeInMillis'>) =>
  invocation({ job: job.name }, async (log) => {
    const deps = senderDeps(() => context?.getRemainingTimeInMillis() ?? 25_000);
    const queued = await sendQueuedMail(mailQueueSenderDeps((message, fields) => log.warn(message, fields), (message, fields) => log.error(message, fields)));
    const automations = await sendAutomationEmails(deps);
    const campaigns = await sendPendingCampaigns(deps);
    // Out of time with a campaign unfinished: the next run now, not at the next minute (its lease lets it in at once:
    // the run records each wave with a renewed lease, released as this run ends below).
    if (campaigns.paused > 0) await campaignSenderStarter((fields) => log.info('next run started', fields)).start().catch(() => undefined);
    log.info('campaigns sent', { scheduledAt: event.time, ...campaigns, automationsSent: automations.sent, automationsDropped: automations.dropped, queuedMail: queued });
    return { ...campaigns, automations, queued };
  });

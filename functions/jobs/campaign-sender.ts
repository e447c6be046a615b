import type { Context, ScheduledEvent } from 'aws-lambda';
import { campaignSenderStarter } from '#adapters/lambda-job-starter.ts';
import { sendPendingCampaigns } from '#core/campaigns/campaigns.ts';
import { senderDeps } from '#functions/composition/deps-campaigns.ts';
import { jobs } from '#functions/routes.ts';
import { invocation } from '#middleware/invocation.ts';

const job = jobs.find((j) => j.name === 'campaign-sender')!;

/**
 * Sends the queued email campaigns (the platform's own emails, queued mail and the automations' outbox, are the
 * mail-sender job's); run by EventBridge Scheduler every minute: each campaign continues from its last recorded wave
 * until it is sent, SES's daily quota is reached (`paused`), this run nears its timeout (then it starts the next run at
 * once) or another run holds it.
 */
export const handler = (event: Partial<ScheduledEvent> = {}, context?: Pick<Context, 'getRemainingTimeInMillis'>) =>
  invocation({ job: job.name }, async (log) => {
    const deps = senderDeps(() => context?.getRemainingTimeInMillis() ?? 25_000);
    const campaigns = await sendPendingCampaigns(deps);
    // Out of time with a campaign unfinished: the next run now, not at the next minute (the campaign was freed for it).
    if (campaigns.paused > 0) await campaignSenderStarter((fields) => log.info('next run started', fields)).start().catch(() => undefined);
    log.info('campaigns sent', { scheduledAt: event.time, ...campaigns });
    return campaigns;
  });

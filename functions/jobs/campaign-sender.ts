import type { Context, ScheduledEvent } from 'aws-lambda';
import { sendPendingCampaigns } from '#core/campaigns/campaigns.ts';
import { senderDeps } from '#functions/composition/deps-campaigns.ts';
import { jobs } from '#functions/routes.ts';
import { invocation } from '#middleware/invocation.ts';

const job = jobs.find((j) => j.name === 'campaign-sender')!;

/**
 * Sends the queued email campaigns (the platform's own emails, queued mail and the automations' outbox, are the
 * mail-sender job's); run by EventBridge Scheduler every minute: each campaign continues from its last recorded batch
 * until it is sent, this run nears its timeout (the next run goes on) or another run holds it.
 */
export const handler = (event: Partial<ScheduledEvent> = {}, context?: Pick<Context, 'getRemainingTimeInMillis'>) =>
  invocation({ job: job.name }, async (log) => {
    const deps = senderDeps(() => context?.getRemainingTimeInMillis() ?? 25_000);
    const campaigns = await sendPendingCampaigns(deps);
    log.info('campaigns sent', { scheduledAt: event.time, ...campaigns });
    return campaigns;
  });

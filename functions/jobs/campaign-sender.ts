import type { Context, ScheduledEvent } from 'aws-lambda';
import { sendPendingCampaigns } from '#core/campaigns/campaigns.ts';
import { senderDeps } from '#functions/deps-campaigns.ts';
import { jobs } from '#functions/routes.ts';
import { invocation } from '#middleware/invocation.ts';

const job = jobs.find((j) => j.name === 'campaign-sender')!;

/**
 * Sends queued email campaigns, run by EventBridge Scheduler every minute: each campaign continues from its last
 * recorded batch until it is sent, this run nears its timeout (the next run goes on) or another run holds it.
 */
export const handler = (event: Partial<ScheduledEvent> = {}, context?: Pick<Context, 'getRemainingTimeInMillis'>) =>
  invocation({ job: job.name }, async (log) => {
    const result = await sendPendingCampaigns(senderDeps(() => context?.getRemainingTimeInMillis() ?? 25_000));
    log.info('campaigns sent', { scheduledAt: event.time, ...result });
    return result;
  });

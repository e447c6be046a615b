import { CAMPAIGN_SENDER_JOB, campaignSenderWork } from '#core/campaigns/campaigns.ts';
import { senderDeps } from '#functions/composition/deps-campaigns.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';

/**
 * Sends the queued email campaigns (the platform's own emails, queued mail and the automations' outbox, are the
 * mail-sender job's), on the job engine (decision 0033): a run is started at once by the request that queues a campaign
 * and every minute by EventBridge Scheduler; each slice sends waves at SES's rate while its time lasts, each campaign
 * from its last recorded wave, and sends its continuation until every campaign is sent, SES's daily quota is reached
 * (`paused`: a scheduled run resumes it once the quota is back) or another run holds it.
 */
export const work = (remainingMs: () => number) => campaignSenderWork(senderDeps(remainingMs));

export const handler = slicedJob(CAMPAIGN_SENDER_JOB, work);

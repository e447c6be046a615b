import type { SNSEvent } from 'aws-lambda';
import { applyFeedback } from '#core/campaigns/ses-feedback.ts';
import { campaignRepository } from '#functions/composition/deps-campaigns.ts';
import { clock } from '#functions/composition/deps.ts';
import { eventHandlers } from '#functions/routes.ts';
import { invocation } from '#middleware/invocation.ts';

/**
 * SES bounce and complaint notifications, delivered by the configuration set's SNS topic: the addresses go on the
 * suppression list that every campaign checks. A failure throws, so SNS retries; a retry suppresses nobody twice.
 */
export const handler = (event: SNSEvent) =>
  invocation({ job: eventHandlers.sesFeedback.name }, async (log) => {
    const result = await applyFeedback({ campaigns: campaignRepository(), clock }, event.Records.map((r) => r.Sns.Message));
    log.info('ses feedback', { messages: event.Records.length, ...result });
    return result;
  });

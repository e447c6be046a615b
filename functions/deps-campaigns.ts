import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import { campaignSenderStarter } from '#adapters/lambda-job-starter.ts';
import { sesBulkMailer } from '#adapters/ses-mailer.ts';
import type { CampaignRepository, SecretCipher } from '#core/ports.ts';
import { dynamoCampaigns } from '#data/campaigns.ts';
import { appOrigin, clock, ids } from '#functions/deps.ts';
import type { SenderDeps } from '#core/campaigns/campaigns.ts';

/**
 * The composition of the campaign handlers and the sender job. The cipher (and so the KMS client) is built only where
 * the unsubscribe key is needed: the unsubscribe routes and the sender.
 */
let campaigns: CampaignRepository | undefined;
let cipher: SecretCipher | undefined;

export const campaignRepository = (): CampaignRepository => (campaigns ??= dynamoCampaigns());

/** The campaigns' records alone: the lists, templates and automations (no sender, so no Lambda client in their bundles). */
export const campaignStoreDeps = () => ({ campaigns: campaignRepository(), clock });

/** Queueing a campaign, which starts the sender. `report` adds the sender's start (or why it failed) to the request's log line. */
export const campaignDeps = (report?: (fields: Record<string, unknown>) => void) => ({ campaigns: campaignRepository(), clock, ids, sender: campaignSenderStarter(report) });

export const unsubscribeDeps = () => ({ campaigns: campaignRepository(), cipher: (cipher ??= envelopeCipher()), clock });

export const senderDeps = (remainingMs: () => number): SenderDeps => ({
  ...unsubscribeDeps(),
  mailer: sesBulkMailer(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  appOrigin: appOrigin(),
  remainingMs,
});

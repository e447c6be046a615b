import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import { sesBulkMailer } from '#adapters/ses-mailer.ts';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { campaignRunSlice } from '#core/campaigns/campaigns.ts';
import type { JobStarter } from '#core/campaigns/ports.ts';
import type { CampaignRepository, SecretCipher } from '#core/ports.ts';
import { dynamoCampaigns, readUnsubscribeKey } from '#data/campaigns.ts';
import { dynamoSchoolUnsubscribes } from '#data/sequences.ts';
import { readUserIdByEmail, setCommentDigest } from '#data/users.ts';
import { appOrigin, clock, enrollmentRepository, ids, leaderSettingsRepository, licenseRepository, userRepository } from '#functions/composition/deps.ts';
import type { SenderDeps } from '#core/campaigns/campaigns.ts';
import type { WeeklyReportDeps } from '#core/licenses/weekly-report.ts';
import { describeError, logger } from '#middleware/logger.ts';
import { bulkMailerWithoutDeleted } from '#core/mail/deleted-recipients.ts';
import { deletedAccountEmails } from '#data/deleted-recipients.ts';

/**
 * The composition of the campaign handlers and the sender job. The cipher (and so the KMS client) is built only where
 * the unsubscribe key is needed: the unsubscribe routes and the sender.
 */
let campaigns: CampaignRepository | undefined;
let cipher: SecretCipher | undefined;

export const campaignRepository = (): CampaignRepository => (campaigns ??= dynamoCampaigns());

/** The campaigns' records alone: the lists, templates and automations (no sender, so no SQS client in their bundles). */
export const campaignStoreDeps = () => ({ campaigns: campaignRepository(), clock });

/**
 * The campaign sender's run for a queued campaign, started by its first slice on the job's queue (decision 0033).
 * `report` gets the outcome for the request's one log line (with the cause of a failure); a failure is then passed on,
 * and the caller carries on: the job's schedule sends the campaign within the minute anyway.
 */
export const campaignSenderStarter = (report: (fields: Record<string, unknown>) => void = () => undefined): JobStarter => ({
  async start(campaignId) {
    try {
      await sqsSliceQueue().send([campaignRunSlice(campaignId)]);
      report({ senderStart: 'started' });
    } catch (error) {
      report({ senderStart: 'failed', senderStartError: describeError(error) });
      throw error;
    }
  },
});

/** Queueing a campaign, which starts the sender. `report` adds the sender's start (or why it failed) to the request's log line. */
export const campaignDeps = (report?: (fields: Record<string, unknown>) => void) => ({ campaigns: campaignRepository(), clock, ids, sender: campaignSenderStarter(report) });

/**
 * The unsubscribe key and what an unsubscribe stops: the campaigns' suppression list, a leader's weekly email, or one
 * creator's sequences (issue 33).
 */
export const unsubscribeDeps = () => ({
  campaigns: campaignRepository(),
  cipher: (cipher ??= envelopeCipher()),
  clock,
  users: { getUserIdByEmail: readUserIdByEmail },
  leaderSettings: leaderSettingsRepository(),
  commentDigest: setCommentDigest,
  schools: dynamoSchoolUnsubscribes(),
});

/** SES's bulk port, which mails nobody whose account was deleted (core/mail/deleted-recipients.ts). */
const bulkMailer = () => bulkMailerWithoutDeleted(sesBulkMailer(), deletedAccountEmails, (message, fields) => logger.info(message, fields));

export const senderDeps = (remainingMs: () => number): SenderDeps => ({
  campaigns: campaignRepository(),
  cipher: (cipher ??= envelopeCipher()),
  clock,
  mailer: bulkMailer(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  appOrigin: appOrigin(),
  remainingMs,
});

/**
 * The leaders' weekly team email: their team's progress, the unsubscribe key, and the bulk sender. Only the reads and
 * writes it makes (the unsubscribe key alone, not the campaigns' repository; the leaders by role, not the users'),
 * so its bundle carries none of the campaigns' or accounts' other code.
 */
export const weeklyReportDeps = (remainingMs: () => number): WeeklyReportDeps & { remainingMs: () => number } => ({
  campaigns: { unsubscribeKey: readUnsubscribeKey },
  cipher: (cipher ??= envelopeCipher()),
  clock,
  mailer: bulkMailer(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  appOrigin: appOrigin(),
  remainingMs,
  users: userRepository(),
  leaderSettings: leaderSettingsRepository(),
  licenses: licenseRepository(),
  enrollments: enrollmentRepository(),
});

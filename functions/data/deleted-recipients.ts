import { campaignKeys } from '#data/campaigns.ts';
import { batchGet } from '#data/table.ts';
import { userKeys } from '#data/users.ts';

/** Addresses asked about per BatchGetItem: two keys each, under its 100. */
const EMAILS_PER_READ = 50;

/**
 * The addresses among `emails` whose accounts were deleted (their suppression's reason 'deleted', put by the deletion's
 * email-keys step) and that no account holds again (no email reservation: someone who signs up again with it gets
 * their mail). BatchGetItem of both keys, for the mail sender and the SES ports to drop what was meant for them
 * (core/mail/deleted-recipients.ts).
 */
export const deletedAccountEmails = async (emails: readonly string[]): Promise<ReadonlySet<string>> => {
  const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
  const deleted = new Set<string>();
  for (let i = 0; i < unique.length; i += EMAILS_PER_READ) {
    const batch = unique.slice(i, i + EMAILS_PER_READ);
    const found = await batchGet(batch.flatMap((email) => [campaignKeys.suppression(email), userKeys.email(email)]), { projection: 'pk, reason' });
    const held = new Set(found.filter((item) => String(item['pk']).startsWith('EMAIL#')).map((item) => String(item['pk']).slice('EMAIL#'.length)));
    for (const item of found) {
      const email = String(item['pk']).slice('SUPPRESS#'.length);
      if (String(item['pk']).startsWith('SUPPRESS#') && item['reason'] === 'deleted' && !held.has(email)) deleted.add(email);
    }
  }
  return deleted;
};

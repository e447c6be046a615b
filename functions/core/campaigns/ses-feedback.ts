import * as z from 'zod';
import type { CampaignRepository, Clock, SuppressionReason } from '#core/ports.ts';

/**
 * SES's bounce and complaint notifications (event publishing through the configuration set, delivered by SNS): a
 * permanent bounce or a complaint puts each address concerned on the suppression list, once. Transient bounces (a full
 * mailbox) and every other event type change nothing.
 */
const recipients = z.array(z.object({ emailAddress: z.string() }));
const notification = z.discriminatedUnion('eventType', [
  z.object({ eventType: z.literal('Bounce'), bounce: z.object({ bounceType: z.string(), bouncedRecipients: recipients }) }),
  z.object({ eventType: z.literal('Complaint'), complaint: z.object({ complainedRecipients: recipients }) }),
]);

/** The addresses a notification suppresses, with why (none for anything that is not a hard bounce or a complaint). */
export const feedbackSuppressions = (message: string): { email: string; reason: SuppressionReason }[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return [];
  }
  const result = notification.safeParse(parsed);
  if (!result.success) return [];
  const n = result.data;
  if (n.eventType === 'Bounce') {
    return n.bounce.bounceType === 'Permanent' ? n.bounce.bouncedRecipients.map((r) => ({ email: r.emailAddress.toLowerCase(), reason: 'bounce' as const })) : [];
  }
  return n.complaint.complainedRecipients.map((r) => ({ email: r.emailAddress.toLowerCase(), reason: 'complaint' as const }));
};

/** Applies SNS messages; a redelivered one changes nothing (a suppression is put once). */
export const applyFeedback = async (deps: { campaigns: CampaignRepository; clock: Clock }, messages: readonly string[]): Promise<{ suppressed: number }> => {
  let suppressed = 0;
  for (const message of messages) {
    for (const { email, reason } of feedbackSuppressions(message)) {
      if (await deps.campaigns.suppress(email, reason, deps.clock.now().toISOString())) suppressed += 1;
    }
  }
  return { suppressed };
};

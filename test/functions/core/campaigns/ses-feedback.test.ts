import { describe, expect, it } from 'vitest';
import { applyFeedback, feedbackSuppressions } from '#core/campaigns/ses-feedback.ts';
import type { CampaignRepository, SuppressionReason } from '#core/ports.ts';

/** SES event publishing notifications as SNS delivers them (the Message field), trimmed to what is read. */
const bounce = (bounceType: string, ...emails: string[]) =>
  JSON.stringify({ eventType: 'Bounce', bounce: { bounceType, bounceSubType: 'General', bouncedRecipients: emails.map((emailAddress) => ({ emailAddress })), timestamp: '2026-11-24T10:00:00.000Z' }, mail: { messageId: 'm-1' } });
const complaint = (...emails: string[]) =>
  JSON.stringify({ eventType: 'Complaint', complaint: { complainedRecipients: emails.map((emailAddress) => ({ emailAddress })), complaintFeedbackType: 'abuse' }, mail: { messageId: 'm-2' } });

describe('SES feedback', () => {
  it('suppresses hard-bounced and complaining addresses, lower-cased, and nothing for a soft bounce or another event', () => {
    expect(feedbackSuppressions(bounce('Permanent', 'Ann@Example.com', 'bob@example.com'))).toEqual([
      { email: 'ann@example.com', reason: 'bounce' },
      { email: 'bob@example.com', reason: 'bounce' },
    ]);
    expect(feedbackSuppressions(complaint('cat@example.com'))).toEqual([{ email: 'cat@example.com', reason: 'complaint' }]);
    expect(feedbackSuppressions(bounce('Transient', 'full@example.com'))).toEqual([]);
    expect(feedbackSuppressions(JSON.stringify({ eventType: 'Delivery', delivery: {} }))).toEqual([]);
    expect(feedbackSuppressions('not json')).toEqual([]);
  });

  it('puts each address on the list once, however often SNS delivers the message', async () => {
    const list = new Map<string, SuppressionReason>();
    const campaigns = {
      suppress: async (email: string, reason: SuppressionReason) => (list.has(email) ? false : (list.set(email, reason), true)),
    } as unknown as CampaignRepository;
    const deps = { campaigns, clock: { now: () => new Date() } };
    const messages = [bounce('Permanent', 'ann@example.com'), complaint('cat@example.com')];
    expect(await applyFeedback(deps, messages)).toEqual({ suppressed: 2 });
    expect(await applyFeedback(deps, messages)).toEqual({ suppressed: 0 });
    expect([...list]).toEqual([
      ['ann@example.com', 'bounce'],
      ['cat@example.com', 'complaint'],
    ]);
  });
});

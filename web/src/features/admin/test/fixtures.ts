import type { AdminStats } from '@contracts/admin.ts';
import type { AutomationList, CampaignList, CampaignSummary, TemplateList } from '@contracts/campaigns.ts';

const weekStarts = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, 8, 7 + 7 * i)).toISOString().slice(0, 10));

/** A small platform: 3 subscribed creators (1 on trial), 1 Starter and 1 Pro paid up, no affiliates. */
export const adminStatsFixture: AdminStats = {
  users: { total: 14, admins: 1, creators: 5, leaders: 2, learners: 6, disabled: 1 },
  subscriptions: { subscribed: 3, onTrial: 1, starter: 2, pro: 1 },
  revenue: { currency: 'GBP', estimatedMonthly: 8700, mrr: 9500, breakdown: { creatorSubscriptions: 6090, courseLicenses: 2175, platformFees: 435 } },
  courses: { published: 5, total: 7, enrollments: 42, completed: 9 },
  certificates: { issued: 0 },
  affiliates: { affiliates: 0, clicks: 0, sales: 0, commissionsTotal: 0, pending: 0, approved: 0, paidOut: 0 },
  recentActivity: [
    { kind: 'subscription', text: 'A creator subscribed to Pro', at: '2026-11-24T10:00:00.000Z' },
    { kind: 'sign-up', text: 'New creator: maya@example.com', at: '2026-11-23T09:30:00.000Z' },
  ],
  trends: { weeks: weekStarts.map((weekStart, i) => ({ weekStart, signUps: i === 11 ? 3 : 1, mrr: i >= 10 ? 9500 : 2800 })) },
};

/** The four built-in templates, 'welcome' edited once. */
export const emailTemplatesFixture: TemplateList = {
  items: [
    {
      id: 'welcome',
      name: 'Welcome Email',
      description: 'Greets a new creator and points to their first course.',
      subject: 'Welcome to the platform',
      content: 'Hello and welcome!\n\nStart your first course at https://example.com/dashboard today.',
      updatedAt: '2026-11-20T09:00:00.000Z',
    },
    { id: 'newsletter', name: 'Monthly Newsletter', description: 'Platform news and tips.', subject: 'This month on the platform', content: 'Here is what is new.', updatedAt: null },
    { id: 'announcement', name: 'Course Announcement', description: 'A new or updated course.', subject: 'A new course is out', content: 'Take a look.', updatedAt: null },
    { id: 'trial-ending', name: 'Trial Ending', description: 'Three days before a trial ends.', subject: 'Your trial ends soon', content: 'Pick a plan.', updatedAt: null },
  ],
};

export const emailAutomationsFixture: AutomationList = {
  items: [
    { id: 'welcome', name: 'Welcome email', trigger: 'When a creator signs up', templateId: 'welcome', enabled: true, sent: 12 },
    { id: 'trial-ending', name: 'Trial ending reminder', trigger: '3 days before a trial ends', templateId: 'trial-ending', enabled: false, sent: 3 },
  ],
};

/** A campaign as the list shows it, sent by default. */
export const campaignFixture = (overrides: Partial<CampaignSummary>): CampaignSummary => ({
  id: 'c1',
  subject: 'November update',
  recipient: 'creators',
  template: 'custom',
  status: 'sent',
  recipientCount: 120,
  sent: 115,
  failed: 1,
  skipped: 4,
  createdAt: '2026-11-22T10:00:00.000Z',
  completedAt: '2026-11-22T10:02:00.000Z',
  ...overrides,
});

/** Two campaigns, newest first: one still sending, one sent. */
export const campaignsFixture: CampaignList = {
  items: [
    campaignFixture({ id: 'c2', subject: 'Trial tips', recipient: 'trial', status: 'sending', recipientCount: 40, sent: 20, failed: 0, skipped: 0, createdAt: '2026-11-23T08:00:00.000Z', completedAt: null }),
    campaignFixture({}),
  ],
  totals: { campaigns: 2, sent: 1234, failed: 5, unsubscribed: 7, suppressed: 2 },
};

export const noCampaignsFixture: CampaignList = { items: [], totals: { campaigns: 0, sent: 0, failed: 0, unsubscribed: 0, suppressed: 0 } };


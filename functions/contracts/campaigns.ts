import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Email campaigns, templates, automations and unsubscribe (SPEC.md "Admin email management", docs/api.md). The admin
 * composes; the platform sends asynchronously through SES in batches of at most 50, skipping unsubscribed and
 * suppressed addresses.
 */

/** Who a campaign goes to. `trial` = subscriptions on trial; `subscribed` = on trial or paid up (as the stats count). */
export const campaignRecipients = ['all', 'creators', 'learners', 'leaders', 'trial', 'subscribed'] as const;
export const campaignRecipient = z.enum(campaignRecipients);
export type CampaignRecipient = z.infer<typeof campaignRecipient>;

/** The Recipients select's labels, in the order it lists them. */
export const recipientLabels: Record<CampaignRecipient, string> = {
  all: 'All users',
  creators: 'Creators',
  learners: 'Learners',
  leaders: 'Group leaders',
  trial: 'Creators on trial',
  subscribed: 'Subscribed creators',
};

/** The built-in templates; each can be edited (its stored version replaces the default). */
export const templateIds = ['welcome', 'newsletter', 'announcement', 'trial-ending'] as const;
export const templateId = z.enum(templateIds);
export type TemplateId = z.infer<typeof templateId>;

/** A campaign's template: 'custom' (written in the form) or the built-in template it started from. */
export const campaignTemplate = z.union([z.literal('custom'), templateId]);
export type CampaignTemplate = z.infer<typeof campaignTemplate>;

export const SUBJECT_MAX = 200;
export const CONTENT_MAX = 50_000;
/** SES SendBulkEmail takes at most 50 destinations per call. */
export const SES_BATCH_MAX = 50;
/** Share of SES's MaxSendRate the campaign sender uses, leaving room for the platform's own emails. */
export const SEND_RATE_SHARE = 0.8;

const subject = z.string().trim().min(1, 'Enter a subject.').max(SUBJECT_MAX, `Use at most ${SUBJECT_MAX} characters.`);
/** Plain text: blank lines separate paragraphs, links are made clickable in the HTML part. */
const content = z.string().trim().min(1, 'Enter the content.').max(CONTENT_MAX, `Use at most ${CONTENT_MAX} characters.`);

/** POST /api/admin/emails (an optional Idempotency-Key header makes a retried send one campaign). */
export const sendCampaignBody = z.strictObject({ subject, content, recipient: campaignRecipient, template: campaignTemplate });
export type SendCampaignBody = z.infer<typeof sendCampaignBody>;

/** 202: queued; `recipientCount` is the audience when queued (before unsubscribed and suppressed are skipped). */
export const campaignQueued = z.object({ campaignId: z.string(), recipientCount: z.number().int().min(0) });
export type CampaignQueued = z.infer<typeof campaignQueued>;

/** `paused`: SES's daily quota is reached; the sender goes on by itself once SES allows more (within 24 hours). */
export const campaignStatuses = ['queued', 'sending', 'paused', 'sent', 'failed'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

const count = z.number().int().min(0);

/** One campaign in GET /api/admin/emails, newest first. `skipped` = unsubscribed or suppressed (beyond API.md). */
export const campaignSummary = z.object({
  id: z.string(),
  subject: z.string(),
  recipient: campaignRecipient,
  template: campaignTemplate,
  status: z.enum(campaignStatuses),
  recipientCount: count,
  sent: count,
  failed: count,
  skipped: count,
  createdAt: isoDate,
  /** When the last batch went out; null while queued or sending. */
  completedAt: isoDate.nullable(),
});
export type CampaignSummary = z.infer<typeof campaignSummary>;

/** GET /api/admin/emails: the newest 50 campaigns and the platform's email totals (the summary cards). */
export const campaignList = z.object({
  items: z.array(campaignSummary),
  totals: z.object({
    campaigns: count,
    sent: count,
    failed: count,
    /** Addresses that unsubscribed with a link. */
    unsubscribed: count,
    /** Addresses SES reported as bounced or complained about. */
    suppressed: count,
  }),
});
export type CampaignList = z.infer<typeof campaignList>;

/* ---------- Templates (GET /api/admin/email-templates, PUT /api/admin/email-templates/{templateId}) ---------- */

export const emailTemplate = z.object({
  id: templateId,
  name: z.string(),
  description: z.string(),
  subject: z.string(),
  content: z.string(),
  /** null while it is the built-in default. */
  updatedAt: isoDate.nullable(),
});
export type EmailTemplate = z.infer<typeof emailTemplate>;

export const templateList = z.object({ items: z.array(emailTemplate) });
export type TemplateList = z.infer<typeof templateList>;

export const saveTemplateBody = z.strictObject({ subject, content });
export type SaveTemplateBody = z.infer<typeof saveTemplateBody>;

/* ---------- Automations (GET /api/admin/email-automations, PUT /api/admin/email-automations/{automationId}) ---------- */

/** The emails the platform sends on its own: welcome on sign-up, and 3 days before a trial ends (Stripe's trial_will_end). */
export const automationIds = ['welcome', 'trial-ending'] as const;
export const automationId = z.enum(automationIds);
export type AutomationId = z.infer<typeof automationId>;

export const emailAutomation = z.object({
  id: automationId,
  name: z.string(),
  /** What starts it, in words ("When a creator signs up"). */
  trigger: z.string(),
  templateId,
  enabled: z.boolean(),
  /** Emails this automation has sent. */
  sent: count,
});
export type EmailAutomation = z.infer<typeof emailAutomation>;

export const automationList = z.object({ items: z.array(emailAutomation) });
export type AutomationList = z.infer<typeof automationList>;

export const saveAutomationBody = z.strictObject({ enabled: z.boolean() });
export type SaveAutomationBody = z.infer<typeof saveAutomationBody>;

/* ---------- Unsubscribe (public: GET shows a confirmation page, POST unsubscribes; RFC 8058) ---------- */

/** `?token=`: the address and an HMAC over it (base64url parts); any change to either is a 400. */
export const unsubscribeQuery = z.object({ token: z.string().min(1).max(1024) });
export const unsubscribed = z.object({ unsubscribed: z.literal(true) });

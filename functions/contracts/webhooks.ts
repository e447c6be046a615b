import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Webhook endpoints (issue 31 point 4; docs/api.md "Public API (Pro) and signed webhooks"): a Pro creator's URLs, each
 * told of the events it subscribes to, signed as the Standard Webhooks specification says with the endpoint's secret
 * (`whsec_` + base64, shown once).
 */
export const webhookEventTypes = [
  'enrollment.created',
  'lesson.completed',
  'course.completed',
  'order.paid',
  'order.refunded',
  'certificate.issued',
  'session.scheduled',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
/** What each event means, in the words of the Developers page. */
export const webhookEventLabels: Record<WebhookEventType, string> = {
  'enrollment.created': 'A learner is enrolled in a course',
  'lesson.completed': 'A learner completes a lesson',
  'course.completed': 'A learner completes a course',
  'order.paid': 'An order is paid',
  'order.refunded': 'An order is refunded or disputed',
  'certificate.issued': 'A certificate is issued',
  'session.scheduled': 'A live session is scheduled',
};
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_URL_MAX = 2000;
/** Endpoints one creator may hold at once. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
/** The waits before each retry of a delivery that failed (seconds): about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then `failed`. */
export const WEBHOOK_RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
/** An endpoint whose deliveries have all failed for this long is disabled and its creator emailed. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** POST /api/webhook-endpoints (the URL's scheme and address are checked again by the use case: https, public). */
export const createWebhookEndpointBody = z.strictObject({
  url: z.string().trim().url('Enter the full address, starting with https://.').max(WEBHOOK_URL_MAX),
  events: z
    .array(z.enum(webhookEventTypes))
    .min(1, 'Choose at least one event.')
    .refine((events) => new Set(events).size === events.length, 'Each event once.'),
});
export type CreateWebhookEndpointBody = z.infer<typeof createWebhookEndpointBody>;

/** An endpoint as listed (never its secret). `disabledAt` is set when it was disabled after failing for days. */
export const webhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  createdAt: isoDate,
  disabledAt: isoDate.nullable(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointView>;

/** 201 of POST /api/webhook-endpoints: `secret` is shown this once. */
export const createdWebhookEndpoint = z.object({ id: z.string(), url: z.string(), events: z.array(z.enum(webhookEventTypes)), secret: z.string().startsWith(WEBHOOK_SECRET_PREFIX) });
export type CreatedWebhookEndpoint = z.infer<typeof createdWebhookEndpoint>;

/** GET /api/webhook-endpoints. */
export const webhookEndpointList = z.object({ items: z.array(webhookEndpointView) });

/** One delivery of one event to one endpoint, newest first in GET .../deliveries?cursor= (`nextCursor` null on the last page). */
export const webhookDeliveryView = z.object({
  id: z.string(),
  event: z.enum(webhookEventTypes),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int().min(0),
  lastStatusCode: z.number().int().nullable(),
  nextAttemptAt: isoDate.nullable(),
  createdAt: isoDate,
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;
/** GET .../deliveries?cursor= (the cursor of the page before). */
export const webhookDeliveryQuery = z.object({ cursor: z.string().min(1).max(2048).optional() });
export const webhookDeliveryPage = z.object({ items: z.array(webhookDeliveryView), nextCursor: z.string().nullable() });
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPage>;

/** The body of every delivery: `{type, timestamp, data}` (`data` is the event's object, as the /v1 API shows it). */
export const webhookPayload = z.object({ type: z.enum(webhookEventTypes), timestamp: isoDate, data: z.record(z.string(), z.unknown()) });
export type WebhookPayload = z.infer<typeof webhookPayload>;

import * as z from 'zod';
import { isoDate } from './common.ts';
import { liveSession } from './live-sessions.ts';
import { sale, saleStatuses } from './sales.ts';

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

/*
 * Each event's `data` (docs/api.md "What `data` holds"; the OpenAPI document's `webhooks`): named as the /v1 objects
 * are, so a receiver reads an order as it reads a sale from GET /v1/sales. An event about an object (an order, a
 * certificate, a session) names it `id`; the course is `courseId` and `courseTitle`; the learner `learner: {id, email}`;
 * amounts are pence with their `currency`; times are ISO 8601. The order and session fields are the /v1 objects' own
 * schemas, so renaming one there renames it here. core/webhooks/events.ts builds each one and checks it against these.
 */
const courseId = z.string().describe("The course's id (as in GET /v1/courses).");
const courseTitle = z.string().describe("The course's title when the event happened.");
const learner = z
  .object({ id: z.string().describe("The learner's id (as in GET /v1/learners)."), email: z.string().describe("The learner's email.") })
  .describe('The learner.');

export const enrollmentCreatedData = z
  .object({ courseId, courseTitle, learner, enrolledAt: isoDate.describe('When the learner was enrolled (or enrolled again).') })
  .describe('A learner was enrolled in a course: made, or a removed enrolment restored.');

export const lessonCompletedData = z
  .object({
    courseId,
    courseTitle,
    lessonId: z.string().describe("The completed lesson's id (as in the course's `lessons`)."),
    learner,
    progress: z.number().int().min(0).max(100).describe("The learner's progress through the course after it, 0-100 (%)."),
    completedAt: isoDate.describe('When the lesson was completed.'),
  })
  .describe('A learner completed a lesson (one event per lesson).');

export const courseCompletedData = z
  .object({ courseId, courseTitle, learner, completedAt: isoDate.describe('When the learner completed the course.') })
  .describe('A learner completed a course.');

/** An order as the /v1 sale object shows it (functions/contracts/sales.ts `sale`), with when it was paid. */
const order = {
  id: sale.shape.id.describe("The order's id: the sale's `id` in GET /v1/sales."),
  courseId,
  courseTitle,
  buyerEmail: z.string().nullable().describe("The buyer's email (null when the payment gave none)."),
  amount: sale.shape.amount.describe('Pence paid, after any discount.'),
  currency: sale.shape.currency.describe('The currency of `amount` (ISO 4217, lower case).'),
  seats: sale.shape.seats.describe('Seats bought for a team (null: a single learner).'),
  paidAt: isoDate.nullable().describe('When the order was paid.'),
};

export const orderPaidData = z
  .object({ ...order, status: z.literal('paid').describe("The sale's status.") })
  .describe('An order was paid.');

export const orderRefundedData = z
  .object({ ...order, status: z.enum(saleStatuses).exclude(['paid']).describe("The sale's status: refunded, or disputed (a chargeback).") })
  .describe('A paid order was refunded or disputed (once per order).');

export const certificateIssuedData = z
  .object({
    id: z.string().describe("The certificate's id (its public page is /certificates/{id})."),
    courseId,
    courseTitle,
    learner,
    issuedAt: isoDate.describe('When the certificate was issued.'),
  })
  .describe('A certificate was issued to a learner who completed a course.');

export const sessionScheduledData = z
  .object({
    id: liveSession.shape.id.describe("The live session's id."),
    courseId,
    title: liveSession.shape.title.describe("The session's title."),
    startsAt: liveSession.shape.startsAt.describe('When the session starts.'),
    durationMinutes: liveSession.shape.durationMinutes.describe('How long it lasts, in minutes.'),
    timeZone: z.string().nullable().describe('The IANA time zone it was scheduled in (e.g. Europe/London).'),
  })
  .describe('A live session was scheduled for a course.');

/** Each event type's `data` (a unit test fails when an event type has none, or events.ts builds another shape). */
export const webhookEventData = {
  'enrollment.created': enrollmentCreatedData,
  'lesson.completed': lessonCompletedData,
  'course.completed': courseCompletedData,
  'order.paid': orderPaidData,
  'order.refunded': orderRefundedData,
  'certificate.issued': certificateIssuedData,
  'session.scheduled': sessionScheduledData,
} as const satisfies Record<WebhookEventType, z.ZodType>;
export type WebhookEventData<T extends WebhookEventType = WebhookEventType> = z.infer<(typeof webhookEventData)[T]>;

/** The body of every delivery: `{type, timestamp, data}` (`data` is the event's object, as the /v1 API shows it). */
export const webhookPayload = z.object({ type: z.enum(webhookEventTypes), timestamp: isoDate, data: z.record(z.string(), z.unknown()) });
export type WebhookPayload = z.infer<typeof webhookPayload>;

/** The body of one event type's deliveries, its `data` exactly. */
export const webhookPayloadOf = <T extends WebhookEventType>(type: T) =>
  z.object({
    type: z.literal(type).describe('The event type.'),
    timestamp: isoDate.describe('When the change happened.'),
    data: webhookEventData[type],
  });

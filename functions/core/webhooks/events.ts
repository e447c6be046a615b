import { createHash } from 'node:crypto';
import { webhookEventData, type WebhookEventData, type WebhookEventType } from '#contracts/webhooks.ts';
import type { StoredWebhookDelivery, StoredWebhookEndpoint } from '#core/webhooks/ports.ts';

/** One change of the table, as the stream gives it (images unmarshalled). */
export interface TableChange {
  /** The stream record's identity (its `eventID`): the same when a batch is seen again. */
  readonly id: string;
  readonly kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** When the change was made (the record's ApproximateCreationDateTime). */
  readonly at: Date;
  readonly before: Record<string, unknown> | undefined;
  readonly after: Record<string, unknown> | undefined;
}

/**
 * An event for one creator's endpoints; `part` tells two events of one change apart (each lesson completed). `data` is
 * its type's documented shape (functions/contracts/webhooks.ts `webhookEventData`).
 */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  [K in T]: { readonly creatorId: string; readonly type: K; readonly part: string; readonly data: WebhookEventData<K> };
}[T];

/** An event left out because the item did not give its documented shape (a field missing or of another type). */
export interface MisshapenEvent {
  readonly type: WebhookEventType;
  /** The fields at fault, e.g. `learner.email`: names, never the values. */
  readonly fields: readonly string[];
}

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const skOf = (item: Record<string, unknown> | undefined): string => (typeof item?.['sk'] === 'string' ? item['sk'] : '');

/** What eventsOf reads of an item, before it is checked against the event type's schema. */
type Draft<T extends WebhookEventType> = { [K in keyof WebhookEventData<T>]: unknown };

/**
 * The events one change of the table means (decision 0053: the table's stream is the outbox). `data` is what the
 * public API shows of the object, named as the /v1 objects are: emails, ids, titles and amounts, never internal keys.
 * - an enrolment (sk ENROLL#) becoming active: `enrollment.created`; each lesson newly in its `completedLessonIds`:
 *   `lesson.completed`; its `completedAt` newly set: `course.completed`;
 * - an order (sk ORDER with an `id`) moving to paid: `order.paid`; to refunded or disputed: `order.refunded`;
 * - a certificate inserted (sk CERT): `certificate.issued`; a live session inserted (sk SESSION) scheduled:
 *   `session.scheduled`.
 * Each `data` is checked against its type's schema: an item that cannot give it (a field missing or of another type)
 * is no event rather than a payload that breaks the documented contract; `misshapen` is told which, to log it.
 */
export const eventsOf = (change: TableChange, misshapen: (event: MisshapenEvent) => void = () => {}): WebhookEvent[] => {
  const { before, after } = change;
  if (!after || change.kind === 'REMOVE') return [];
  const sk = skOf(after);
  const creatorId = after['creatorId'];
  if (!text(creatorId)) return [];
  const events: WebhookEvent[] = [];
  const add = <T extends WebhookEventType>(type: T, part: string, draft: Draft<T>): void => {
    const parsed = webhookEventData[type].safeParse(draft);
    if (parsed.success) events.push({ creatorId, type, part, data: parsed.data } as WebhookEvent);
    else misshapen({ type, fields: [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))] });
  };
  if (sk.startsWith('ENROLL#')) {
    if (after['status'] !== 'active') return [];
    const learner = { id: after['learnerId'], email: after['learnerEmail'] };
    const course = { courseId: after['courseId'], courseTitle: after['courseTitle'] };
    const wasActive = before?.['status'] === 'active';
    if (!wasActive) add('enrollment.created', '', { ...course, learner, enrolledAt: after['enrolledAt'] });
    if (wasActive) {
      const had = new Set(Array.isArray(before?.['completedLessonIds']) ? (before['completedLessonIds'] as unknown[]) : []);
      const now = Array.isArray(after['completedLessonIds']) ? (after['completedLessonIds'] as unknown[]) : [];
      for (const lessonId of now.filter((id) => text(id) && !had.has(id))) {
        add('lesson.completed', String(lessonId), { ...course, lessonId, learner, progress: after['progress'], completedAt: after['lastActivity'] });
      }
      if (text(after['completedAt']) && !text(before?.['completedAt'])) add('course.completed', '', { ...course, learner, completedAt: after['completedAt'] });
    }
    return events;
  }
  if (sk === 'ORDER' && text(after['id'])) {
    const status = after['status'];
    if (status === before?.['status']) return [];
    const order = {
      id: after['id'],
      courseId: after['courseId'],
      courseTitle: after['courseTitle'],
      buyerEmail: after['buyerEmail'] ?? null,
      amount: after['amount'],
      currency: after['currency'],
      seats: after['seats'] ?? null,
      paidAt: after['paidAt'] ?? null,
    };
    if (status === 'paid') add('order.paid', '', { ...order, status });
    else if ((status === 'refunded' || status === 'disputed') && before?.['status'] !== 'refunded' && before?.['status'] !== 'disputed') add('order.refunded', '', { ...order, status });
    return events;
  }
  if (change.kind !== 'INSERT') return [];
  if (sk === 'CERT' && text(after['id'])) {
    add('certificate.issued', '', { id: after['id'], courseId: after['courseId'], courseTitle: after['courseTitle'], learner: { id: after['learnerId'], email: after['learnerEmail'] }, issuedAt: after['issuedAt'] });
  }
  if (sk === 'SESSION' && text(after['id']) && after['status'] === 'scheduled') {
    add('session.scheduled', '', { id: after['id'], courseId: after['courseId'], title: after['title'], startsAt: after['startsAt'], durationMinutes: after['durationMinutes'], timeZone: after['timeZone'] ?? null });
  }
  return events;
};

/**
 * The delivery id (`webhook-id`) of one event to one endpoint: the change's time (so an endpoint's deliveries sort
 * newest first by id) and a hash of the change's identity, the event and the endpoint. A change seen again gives the
 * same id, so its delivery is written once (a conditional put), never sent twice except as a retry.
 */
export const deliveryIdOf = (change: Pick<TableChange, 'id' | 'at'>, event: Pick<WebhookEvent, 'type' | 'part'>, endpointId: string): string =>
  `msg_${change.at.getTime().toString().padStart(13, '0')}${createHash('sha256').update(`${change.id}\n${event.type}\n${event.part}\n${endpointId}`).digest('hex').slice(0, 20)}`;

/** The deliveries of one event: one per endpoint of its creator subscribed to it and not disabled, due at once. */
export const deliveriesOf = (change: TableChange, event: WebhookEvent, endpoints: readonly StoredWebhookEndpoint[]): StoredWebhookDelivery[] => {
  const timestamp = change.at.toISOString();
  const payload = JSON.stringify({ type: event.type, timestamp, data: event.data });
  return endpoints
    .filter((e) => e.creatorId === event.creatorId && e.disabledAt === null && e.events.includes(event.type))
    .map((e) => ({
      creatorId: e.creatorId,
      endpointId: e.id,
      id: deliveryIdOf(change, event, e.id),
      event: event.type,
      payload,
      status: 'pending' as const,
      attempts: 0,
      lastStatusCode: null,
      nextAttemptAt: timestamp,
      createdAt: timestamp,
    }));
};

import { createHash } from 'node:crypto';
import type { WebhookEventType } from '#contracts/webhooks.ts';
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

/** An event for one creator's endpoints; `part` tells two events of one change apart (each lesson completed). */
export interface WebhookEvent {
  readonly creatorId: string;
  readonly type: WebhookEventType;
  readonly part: string;
  readonly data: Record<string, unknown>;
}

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const skOf = (item: Record<string, unknown> | undefined): string => (typeof item?.['sk'] === 'string' ? item['sk'] : '');

/**
 * The events one change of the table means (decision 0053: the table's stream is the outbox). `data` is what the
 * public API shows of the object: emails, ids, titles and amounts, never internal keys.
 * - an enrolment (sk ENROLL#) becoming active: `enrollment.created`; each lesson newly in its `completedLessonIds`:
 *   `lesson.completed`; its `completedAt` newly set: `course.completed`;
 * - an order (sk ORDER with an `id`) moving to paid: `order.paid`; to refunded or disputed: `order.refunded`;
 * - a certificate inserted (sk CERT): `certificate.issued`; a live session inserted (sk SESSION) scheduled:
 *   `session.scheduled`.
 */
export const eventsOf = (change: TableChange): WebhookEvent[] => {
  const { before, after } = change;
  if (!after || change.kind === 'REMOVE') return [];
  const sk = skOf(after);
  const creatorId = after['creatorId'];
  if (!text(creatorId)) return [];
  if (sk.startsWith('ENROLL#')) {
    if (after['status'] !== 'active') return [];
    const learner = { id: after['learnerId'], email: after['learnerEmail'] };
    const course = { courseId: after['courseId'], courseTitle: after['courseTitle'] };
    const events: WebhookEvent[] = [];
    const wasActive = before?.['status'] === 'active';
    if (!wasActive) events.push({ creatorId, type: 'enrollment.created', part: '', data: { ...course, learner, enrolledAt: after['enrolledAt'] } });
    if (wasActive) {
      const had = new Set(Array.isArray(before?.['completedLessonIds']) ? (before['completedLessonIds'] as unknown[]) : []);
      const now = Array.isArray(after['completedLessonIds']) ? (after['completedLessonIds'] as unknown[]) : [];
      for (const lessonId of now.filter((id) => text(id) && !had.has(id))) {
        events.push({ creatorId, type: 'lesson.completed', part: String(lessonId), data: { ...course, lessonId, learner, progress: after['progress'], completedAt: after['lastActivity'] } });
      }
      if (text(after['completedAt']) && !text(before?.['completedAt'])) events.push({ creatorId, type: 'course.completed', part: '', data: { ...course, learner, completedAt: after['completedAt'] } });
    }
    return events;
  }
  if (sk === 'ORDER' && text(after['id'])) {
    const status = after['status'];
    if (status === before?.['status']) return [];
    const order = {
      orderId: after['id'],
      courseId: after['courseId'],
      courseTitle: after['courseTitle'],
      buyerEmail: after['buyerEmail'] ?? null,
      amount: after['amount'],
      currency: after['currency'],
      seats: after['seats'] ?? null,
      paidAt: after['paidAt'] ?? null,
    };
    if (status === 'paid') return [{ creatorId, type: 'order.paid', part: '', data: order }];
    if ((status === 'refunded' || status === 'disputed') && before?.['status'] !== 'refunded' && before?.['status'] !== 'disputed') {
      return [{ creatorId, type: 'order.refunded', part: '', data: { ...order, status } }];
    }
    return [];
  }
  if (change.kind !== 'INSERT') return [];
  if (sk === 'CERT' && text(after['id'])) {
    return [{ creatorId, type: 'certificate.issued', part: '', data: { certificateId: after['id'], courseId: after['courseId'], courseTitle: after['courseTitle'], learner: { id: after['learnerId'], email: after['learnerEmail'] }, issuedAt: after['issuedAt'] } }];
  }
  if (sk === 'SESSION' && text(after['id']) && after['status'] === 'scheduled') {
    const data = { sessionId: after['id'], courseId: after['courseId'], title: after['title'], startsAt: after['startsAt'], durationMinutes: after['durationMinutes'], timeZone: after['timeZone'] ?? null };
    return [{ creatorId, type: 'session.scheduled', part: '', data }];
  }
  return [];
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

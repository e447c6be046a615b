import { describe, expect, it } from 'vitest';
import { webhookEventData, webhookEventTypes } from '#contracts/webhooks.ts';
import { deliveriesOf, deliveryIdOf, eventsOf, type MisshapenEvent, type TableChange, type WebhookEvent } from '#core/webhooks/events.ts';
import type { StoredWebhookEndpoint } from '#core/webhooks/ports.ts';

const at = new Date('2026-11-21T12:00:00.000Z');
const change = (kind: TableChange['kind'], before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): TableChange => ({ id: 'evt-1', kind, at, before, after });
const enrolment = { pk: 'COURSE#c1', sk: 'ENROLL#l1', courseId: 'c1', courseTitle: 'Pottery', creatorId: 'u1', learnerId: 'l1', learnerEmail: 'ada@example.com', status: 'active', enrolledAt: '2026-11-21T11:00:00.000Z', completedLessonIds: [], progress: 0, completedAt: null, lastActivity: '2026-11-21T11:00:00.000Z', gsi1pk: 'CREATOR#u1#LEARNERS' };
const order = { pk: 'ORDER#o1', sk: 'ORDER', id: 'o1', courseId: 'c1', courseTitle: 'Pottery', creatorId: 'u1', accountId: 'acct_1', status: 'pending', buyerEmail: 'bob@example.com', amount: 4900, currency: 'gbp', seats: null, paidAt: null, checkoutSessionId: 'cs_1' };

describe('the webhook events of a change', () => {
  it('an enrolment made or restored active is enrollment.created, with the learner and course and no internal keys', () => {
    const [event, ...rest] = eventsOf(change('INSERT', undefined, enrolment));
    expect(rest).toEqual([]);
    expect(event).toEqual({ creatorId: 'u1', type: 'enrollment.created', part: '', data: { courseId: 'c1', courseTitle: 'Pottery', learner: { id: 'l1', email: 'ada@example.com' }, enrolledAt: enrolment.enrolledAt } });
    expect(JSON.stringify(event!.data)).not.toMatch(/pk|sk|gsi|CREATOR#/);
    expect(eventsOf(change('MODIFY', { ...enrolment, status: 'removed' }, enrolment)).map((e) => e.type)).toEqual(['enrollment.created']);
    expect(eventsOf(change('MODIFY', enrolment, { ...enrolment, status: 'removed' }))).toEqual([]);
  });

  it('each lesson newly completed is lesson.completed; completedAt newly set is course.completed; nothing else on a progress write', () => {
    const after = { ...enrolment, completedLessonIds: ['a', 'b'], progress: 100, completedAt: '2026-11-21T12:00:00.000Z' };
    const events = eventsOf(change('MODIFY', { ...enrolment, completedLessonIds: ['a'] }, after));
    expect(events.map((e) => [e.type, e.part])).toEqual([
      ['lesson.completed', 'b'],
      ['course.completed', ''],
    ]);
    expect(events[0]!.data).toMatchObject({ courseId: 'c1', lessonId: 'b', learner: { email: 'ada@example.com' }, progress: 100 });
    expect(eventsOf(change('MODIFY', after, { ...after, lastActivity: 'later' }))).toEqual([]);
  });

  it('an order moving to paid is order.paid; to refunded or disputed is order.refunded once', () => {
    const paid = { ...order, status: 'paid', paidAt: '2026-11-21T12:00:00.000Z' };
    const [event] = eventsOf(change('MODIFY', order, paid));
    expect(event).toEqual({ creatorId: 'u1', type: 'order.paid', part: '', data: { id: 'o1', courseId: 'c1', courseTitle: 'Pottery', buyerEmail: 'bob@example.com', amount: 4900, currency: 'gbp', seats: null, status: 'paid', paidAt: paid.paidAt } });
    expect(eventsOf(change('MODIFY', paid, { ...paid, status: 'refunded' })).map((e) => [e.type, e.type === 'order.refunded' && e.data.status])).toEqual([['order.refunded', 'refunded']]);
    expect(eventsOf(change('MODIFY', { ...paid, status: 'disputed' }, { ...paid, status: 'refunded' }))).toEqual([]);
    expect(eventsOf(change('MODIFY', paid, { ...paid, learnerId: 'l9' }))).toEqual([]);
    expect(eventsOf(change('MODIFY', order, { ...order, status: 'expired' }))).toEqual([]);
  });

  it('a certificate or a scheduled live session inserted is certificate.issued / session.scheduled', () => {
    const cert = { pk: 'CERT#k1', sk: 'CERT', id: 'k1', courseId: 'c1', courseTitle: 'Pottery', creatorId: 'u1', learnerId: 'l1', learnerEmail: 'ada@example.com', issuedAt: '2026-11-21T12:00:00.000Z', jwt: 'eyJ...' };
    expect(eventsOf(change('INSERT', undefined, cert))).toEqual([
      { creatorId: 'u1', type: 'certificate.issued', part: '', data: { id: 'k1', courseId: 'c1', courseTitle: 'Pottery', learner: { id: 'l1', email: 'ada@example.com' }, issuedAt: cert.issuedAt } },
    ]);
    expect(eventsOf(change('MODIFY', cert, { ...cert, status: 'revoked' }))).toEqual([]);
    const session = { pk: 'SESSION#s1', sk: 'SESSION', id: 's1', courseId: 'c1', creatorId: 'u1', title: 'Live Q&A', startsAt: '2026-12-01T18:00:00.000Z', durationMinutes: 60, timeZone: 'Europe/London', status: 'scheduled', hostUrl: 'https://zoom/host' };
    const [scheduled] = eventsOf(change('INSERT', undefined, session));
    expect(scheduled).toEqual({ creatorId: 'u1', type: 'session.scheduled', part: '', data: { id: 's1', courseId: 'c1', title: 'Live Q&A', startsAt: session.startsAt, durationMinutes: 60, timeZone: 'Europe/London' } });
    expect(JSON.stringify(scheduled)).not.toContain('hostUrl');
  });

  it('other items and removals mean nothing', () => {
    expect(eventsOf(change('INSERT', undefined, { pk: 'USER#u1', sk: 'PROFILE', creatorId: 'u1' }))).toEqual([]);
    expect(eventsOf(change('REMOVE', enrolment, undefined))).toEqual([]);
  });
});

describe('the data of every event, against its documented schema (functions/contracts/webhooks.ts)', () => {
  // Items as the data modules write them (functions/data/enrollments.ts, orders.ts, certificates.ts, live-sessions.ts):
  // every attribute, index keys included, so a field read under another name than the item's is caught too.
  const enrolled = {
    pk: 'COURSE#c1', sk: 'ENROLL#l1', type: 'Enrollment', courseId: 'c1', learnerId: 'l1', creatorId: 'u1', learnerEmail: 'ada@example.com', learnerJoinedAt: '2026-11-01T09:00:00.000Z',
    courseTitle: 'Pottery', courseTitleAt: '2026-11-21T11:00:00.000Z', status: 'active', enrolledAt: '2026-11-21T11:00:00.000Z', completedLessonIds: [], reachedLessonIds: [], progress: 0,
    lastActivity: '2026-11-21T11:00:00.000Z', completedAt: null, gsi1pk: 'CREATOR#u1#LEARNERS', gsi1sk: '2026-11-21T11:00:00.000Z#c1#l1', gsi2pk: 'LEARNER#l1#COURSES', gsi2sk: 'c1',
  };
  const progressed = { ...enrolled, completedLessonIds: ['lesson-1'], reachedLessonIds: ['lesson-1'], progress: 50, lastActivity: '2026-11-22T10:00:00.000Z' };
  const completed = { ...progressed, completedLessonIds: ['lesson-1', 'lesson-2'], progress: 100, lastActivity: '2026-11-23T10:00:00.000Z', completedAt: '2026-11-23T10:00:00.000Z', gsi3pk: 'CERTS#DUE', gsi3sk: '2026-11-23T10:00:00.000Z#c1#l1' };
  const pending = {
    pk: 'ORDER#o1', sk: 'ORDER', type: 'Order', id: 'o1', courseId: 'c1', courseTitle: 'Pottery', creatorId: 'u1', accountId: 'acct_1', status: 'pending', buyerEmail: null, price: 4900, discount: 0, amount: 4900,
    currency: 'gbp', couponCode: null, affiliateId: null, seats: null, checkoutSessionId: 'cs_1', checkoutUrl: 'https://checkout.stripe.com/c/cs_1', paymentIntentId: null, learnerId: null,
    createdAt: '2026-11-21T11:55:00.000Z', paidAt: null,
  };
  const paid = {
    ...pending, status: 'paid', buyerEmail: 'bob@example.com', discount: 490, amount: 4410, couponCode: 'WELCOME10', paymentIntentId: 'pi_1', learnerId: 'l2', paidAt: '2026-11-21T12:00:00.000Z',
    paidEventId: 'evt_1', gsi1pk: 'CREATOR#u1#SALES', gsi1sk: '2026-11-21T12:00:00.000Z#o1',
  };
  const team = { ...paid, id: 'o2', pk: 'ORDER#o2', seats: 5, buyerEmail: null };
  const certificate = {
    pk: 'CERT#k1', sk: 'CERT', type: 'Certificate', id: 'k1', courseId: 'c1', learnerId: 'l1', creatorId: 'u1', learnerEmail: 'ada@example.com', learnerName: 'Ada Lovelace', courseTitle: 'Pottery',
    creatorName: 'Clay Studio', issuedAt: '2026-11-23T10:05:00.000Z', statusList: 0, statusIndex: 7, jwt: 'eyJhbGciOiJFZERTQSJ9.e30.sig', status: 'valid', revokedAt: null, revocationReason: null,
    gsi1pk: 'LEARNER#l1#CERTS', gsi1sk: '2026-11-23T10:05:00.000Z#k1', gsi2pk: 'COURSE#c1#CERTS', gsi2sk: '2026-11-23T10:05:00.000Z#k1',
  };
  const session = {
    pk: 'SESSION#s1', sk: 'SESSION', type: 'LiveSession', id: 's1', courseId: 'c1', creatorId: 'u1', title: 'Live Q&A', description: 'Bring questions.', startsAt: '2026-12-01T18:00:00.000Z',
    durationMinutes: 60, provider: 'zoom', timeZone: 'Europe/London', meetingId: '123', joinUrl: 'https://zoom.us/j/123', hostUrl: 'https://zoom.us/s/123', status: 'scheduled', sequence: 0,
    createdAt: '2026-11-21T12:00:00.000Z', updatedAt: '2026-11-21T12:00:00.000Z', gsi2pk: 'COURSE#c1#SESSIONS', gsi2sk: '2026-12-01T18:00:00.000Z#s1',
  };
  const changes = [
    change('INSERT', undefined, enrolled),
    change('MODIFY', { ...enrolled, status: 'removed' }, enrolled),
    change('MODIFY', enrolled, progressed),
    change('MODIFY', progressed, completed),
    change('MODIFY', pending, paid),
    change('MODIFY', { ...team, status: 'pending' }, team),
    change('MODIFY', paid, { ...paid, status: 'refunded' }),
    change('MODIFY', paid, { ...paid, status: 'disputed' }),
    change('INSERT', undefined, certificate),
    change('INSERT', undefined, session),
  ];

  it('each event is its type\'s documented data exactly, and every event type is made by one of these changes', () => {
    const misshapen: MisshapenEvent[] = [];
    const events = changes.flatMap((c) => eventsOf(c, (m) => misshapen.push(m)));
    expect(misshapen).toEqual([]);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(webhookEventTypes));
    for (const event of events) {
      // As a receiver reads it: the JSON of the delivery, parsed with the schema; nothing left out, nothing extra.
      const data: unknown = JSON.parse(JSON.stringify(event.data));
      const parsed = webhookEventData[event.type].safeParse(data);
      expect(parsed.error?.issues ?? [], event.type).toEqual([]);
      expect(parsed.data, event.type).toEqual(data);
      expect(JSON.stringify(data), event.type).not.toMatch(/"(pk|sk|gsi\d\w*|creatorId|accountId|jwt|hostUrl|joinUrl|paymentIntentId)"/);
    }
  });

  it('names objects as the /v1 API does: an order, a certificate or a session is `id`; the learner is {id, email}', () => {
    const events = changes.flatMap((c) => eventsOf(c));
    const byType = { get: (type: WebhookEvent['type']) => events.find((e) => e.type === type) };
    expect(byType.get('order.paid')?.data).toEqual({ id: 'o1', courseId: 'c1', courseTitle: 'Pottery', buyerEmail: 'bob@example.com', amount: 4410, currency: 'gbp', seats: null, status: 'paid', paidAt: paid.paidAt });
    expect(byType.get('order.refunded')?.data).toMatchObject({ id: 'o1', status: 'refunded', amount: 4410 });
    expect(byType.get('certificate.issued')?.data).toEqual({ id: 'k1', courseId: 'c1', courseTitle: 'Pottery', learner: { id: 'l1', email: 'ada@example.com' }, issuedAt: certificate.issuedAt });
    expect(byType.get('session.scheduled')?.data).toEqual({ id: 's1', courseId: 'c1', title: 'Live Q&A', startsAt: session.startsAt, durationMinutes: 60, timeZone: 'Europe/London' });
    expect(byType.get('lesson.completed')?.data).toEqual({ courseId: 'c1', courseTitle: 'Pottery', lessonId: 'lesson-1', learner: { id: 'l1', email: 'ada@example.com' }, progress: 50, completedAt: progressed.lastActivity });
  });

  it('an item that cannot give the documented data is no event, and says which fields are at fault', () => {
    const misshapen: MisshapenEvent[] = [];
    const { learnerEmail: _email, ...noEmail } = certificate;
    expect(eventsOf(change('INSERT', undefined, noEmail), (m) => misshapen.push(m))).toEqual([]);
    expect(eventsOf(change('MODIFY', pending, { ...paid, amount: '44.10' }), (m) => misshapen.push(m))).toEqual([]);
    expect(misshapen).toEqual([
      { type: 'certificate.issued', fields: ['learner.email'] },
      { type: 'order.paid', fields: ['amount'] },
    ]);
  });
});

describe('the deliveries of an event', () => {
  const endpoint = (id: string, events: StoredWebhookEndpoint['events'], extra: Partial<StoredWebhookEndpoint> = {}): StoredWebhookEndpoint => ({
    creatorId: 'u1', id, url: 'https://hooks.example.com', events, secret: { ciphertext: '', iv: '', tag: '', encryptedDataKey: '' }, createdAt: at.toISOString(), disabledAt: null, failingSince: null, ...extra,
  });

  it('go to the subscribed, enabled endpoints of the creator, with ids that are the same when the change is seen again', () => {
    const c = change('INSERT', undefined, enrolment);
    const [event] = eventsOf(c);
    const endpoints = [endpoint('e1', ['enrollment.created']), endpoint('e2', ['order.paid']), endpoint('e3', ['enrollment.created'], { disabledAt: at.toISOString() }), endpoint('e4', ['enrollment.created'], { creatorId: 'u2' })];
    const deliveries = deliveriesOf(c, event!, endpoints);
    expect(deliveries.map((d) => d.endpointId)).toEqual(['e1']);
    expect(deliveries[0]).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: at.toISOString(), event: 'enrollment.created' });
    expect(JSON.parse(deliveries[0]!.payload)).toEqual({ type: 'enrollment.created', timestamp: at.toISOString(), data: event!.data });
    expect(deliveriesOf(c, event!, endpoints)[0]!.id).toBe(deliveries[0]!.id);
    expect(deliveryIdOf({ ...c, id: 'evt-2' }, event!, 'e1')).not.toBe(deliveries[0]!.id);
    expect(deliveryIdOf(c, { type: 'lesson.completed', part: 'a' }, 'e1')).not.toBe(deliveryIdOf(c, { type: 'lesson.completed', part: 'b' }, 'e1'));
    expect(deliveries[0]!.id).toMatch(/^msg_\d{13}[0-9a-f]{20}$/);
  });
});

import { describe, expect, it } from 'vitest';
import { deliveriesOf, deliveryIdOf, eventsOf, type TableChange } from '#core/webhooks/events.ts';
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
    expect(event).toEqual({ creatorId: 'u1', type: 'order.paid', part: '', data: { orderId: 'o1', courseId: 'c1', courseTitle: 'Pottery', buyerEmail: 'bob@example.com', amount: 4900, currency: 'gbp', seats: null, paidAt: paid.paidAt } });
    expect(eventsOf(change('MODIFY', paid, { ...paid, status: 'refunded' })).map((e) => [e.type, e.data['status']])).toEqual([['order.refunded', 'refunded']]);
    expect(eventsOf(change('MODIFY', { ...paid, status: 'disputed' }, { ...paid, status: 'refunded' }))).toEqual([]);
    expect(eventsOf(change('MODIFY', paid, { ...paid, learnerId: 'l9' }))).toEqual([]);
    expect(eventsOf(change('MODIFY', order, { ...order, status: 'expired' }))).toEqual([]);
  });

  it('a certificate or a scheduled live session inserted is certificate.issued / session.scheduled', () => {
    const cert = { pk: 'CERT#k1', sk: 'CERT', id: 'k1', courseId: 'c1', courseTitle: 'Pottery', creatorId: 'u1', learnerId: 'l1', learnerEmail: 'ada@example.com', issuedAt: '2026-11-21T12:00:00.000Z', jwt: 'eyJ...' };
    expect(eventsOf(change('INSERT', undefined, cert))).toEqual([
      { creatorId: 'u1', type: 'certificate.issued', part: '', data: { certificateId: 'k1', courseId: 'c1', courseTitle: 'Pottery', learner: { id: 'l1', email: 'ada@example.com' }, issuedAt: cert.issuedAt } },
    ]);
    expect(eventsOf(change('MODIFY', cert, { ...cert, status: 'revoked' }))).toEqual([]);
    const session = { pk: 'SESSION#s1', sk: 'SESSION', id: 's1', courseId: 'c1', creatorId: 'u1', title: 'Live Q&A', startsAt: '2026-12-01T18:00:00.000Z', durationMinutes: 60, timeZone: 'Europe/London', status: 'scheduled', hostUrl: 'https://zoom/host' };
    const [scheduled] = eventsOf(change('INSERT', undefined, session));
    expect(scheduled).toEqual({ creatorId: 'u1', type: 'session.scheduled', part: '', data: { sessionId: 's1', courseId: 'c1', title: 'Live Q&A', startsAt: session.startsAt, durationMinutes: 60, timeZone: 'Europe/London' } });
    expect(JSON.stringify(scheduled)).not.toContain('hostUrl');
  });

  it('other items and removals mean nothing', () => {
    expect(eventsOf(change('INSERT', undefined, { pk: 'USER#u1', sk: 'PROFILE', creatorId: 'u1' }))).toEqual([]);
    expect(eventsOf(change('REMOVE', enrolment, undefined))).toEqual([]);
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

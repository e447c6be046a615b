import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { attemptDelivery, sweepDueDeliveries } from '#core/webhooks/deliver.ts';
import { listWebhookDeliveries, retryWebhookDelivery } from '#core/webhooks/deliveries.ts';
import { NotFoundError } from '#core/errors.ts';
import { createWebhookEndpoint, enableWebhookEndpoint } from '#core/webhooks/endpoints.ts';
import { deliveriesOf, eventsOf } from '#core/webhooks/events.ts';
import type { WebhookAnswer, WebhookRequest } from '#core/webhooks/ports.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { countingCipher } from '#test/functions/fakes/integrations.ts';
import { memoryUsers } from '#test/functions/fakes/users.ts';
import { memoryWebhookDeliveries, memoryWebhookEndpoints } from '#test/functions/fakes/webhooks.ts';

const enrolment = (id: string, at: Date) => ({ id, kind: 'INSERT' as const, at, before: undefined, after: { sk: 'ENROLL#l1', status: 'active', creatorId: 'u1', courseId: 'c1', courseTitle: 'Clay', learnerId: 'l1', learnerEmail: 'ada@example.com', enrolledAt: at.toISOString() } });

/** A creator with one endpoint, one enrolment's delivery due, and a receiver answering from `answers` (then 200). */
const world = async (answers: WebhookAnswer[] | ((at: Date) => WebhookAnswer) = []) => {
  // The real time: the receiver's library refuses a timestamp more than 5 minutes away.
  const clock = testClock(new Date().toISOString());
  const endpoints = memoryWebhookEndpoints();
  const cipher = countingCipher();
  const made = await createWebhookEndpoint({ endpoints, cipher, clock, ids: sequentialIds('ep'), randomSecret: () => randomBytes(32).toString('base64'), allowLocalHttp: false }, { creatorId: 'u1', body: { url: 'https://hooks.example.com/in', events: ['enrollment.created'] } });
  const sent: WebhookRequest[] = [];
  const answer = (): WebhookAnswer => (typeof answers === 'function' ? answers(clock.now()) : (answers.shift() ?? { kind: 'answered', status: 200 }));
  const sender = { send: async (request: WebhookRequest) => (sent.push(request), answer()) };
  const deliveries = memoryWebhookDeliveries();
  /** A new enrolment of the creator now: its deliveries written as the stream reaction writes them. */
  const enrol = async (id: string) => {
    const change = enrolment(id, clock.now());
    return deliveries.enqueue(deliveriesOf(change, eventsOf(change)[0]!, await endpoints.list('u1')));
  };
  const [delivery] = await enrol('evt-1');
  const users = memoryUsers([{ id: 'u1', email: 'maker@example.com', role: 'creator', createdAt: clock.now().toISOString() }]);
  const deps = { endpoints, deliveries, cipher, sender, clock, ids: sequentialIds('mail'), users, appOrigin: 'https://app.example.com' };
  return { deps, made, sent, delivery: delivery!, clock, deliveries, endpoints, enrol };
};
const current = (w: Awaited<ReturnType<typeof world>>) => w.deliveries.deliveries.get(w.delivery.id)!;
const noWarn = () => undefined;

describe('a webhook delivery', () => {
  it('is signed so that the standardwebhooks library verifies it with the secret shown once, and is then delivered', async () => {
    const w = await world();
    expect(await attemptDelivery(w.deps, w.delivery)).toBe('delivered');
    const [request] = w.sent;
    expect(request!.headers['webhook-id']).toBe(w.delivery.id);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(new Webhook(w.made.secret).verify(request!.body, request!.headers)).toMatchObject({ type: 'enrollment.created', data: { courseId: 'c1' } });
    expect(current(w)).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, nextAttemptAt: null });
  });

  it('is retried on the schedule with the same webhook-id after a 500, a timeout or a refused address, then failed after the eighth attempt', async () => {
    const w = await world([{ kind: 'answered', status: 500 }, { kind: 'unreachable', reason: 'no answer within 10 s' }, { kind: 'refused', reason: 'private' }, ...Array.from({ length: 5 }, () => ({ kind: 'answered', status: 302 }) as const)]);
    expect(await attemptDelivery(w.deps, w.delivery)).toBe('retry');
    expect(current(w)).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, nextAttemptAt: new Date(w.clock.now().getTime() + 5_000).toISOString() });
    for (const wait of [5, 300, 1800, 7200, 18000, 36000, 36000]) {
      expect(await sweepDueDeliveries(w.deps, () => false, noWarn)).toMatchObject({ delivered: 0, retrying: 0 });
      w.clock.advance(wait * 1000);
      await sweepDueDeliveries(w.deps, () => false, noWarn);
    }
    expect(w.sent).toHaveLength(8);
    expect(new Set(w.sent.map((r) => r.headers['webhook-id']))).toEqual(new Set([w.delivery.id]));
    expect(current(w)).toMatchObject({ status: 'failed', attempts: 8, lastStatusCode: 302, nextAttemptAt: null });
  });

  it('is claimed before its attempt: two workers with the same read send it once', async () => {
    const w = await world();
    const outcomes = await Promise.all([attemptDelivery(w.deps, w.delivery), attemptDelivery(w.deps, w.delivery)]);
    expect(outcomes.sort()).toEqual(['delivered', 'taken']);
    expect(w.sent).toHaveLength(1);
  });

  it('to a deleted endpoint fails without a request', async () => {
    const w = await world();
    await w.endpoints.remove('u1', w.made.id);
    expect(await attemptDelivery(w.deps, w.delivery)).toBe('failed');
    expect(w.sent).toHaveLength(0);
  });

  it('failed is attempted at once by Retry now, with the same id; the log shows it; another creator gets 404', async () => {
    const w = await world(Array.from({ length: 8 }, () => ({ kind: 'answered', status: 500 }) as const));
    for (let i = 0; i < 8; i++) {
      await sweepDueDeliveries(w.deps, () => false, noWarn);
      w.clock.advance(36_000_000);
    }
    expect(current(w)).toMatchObject({ status: 'failed', attempts: 8 });
    await expect(retryWebhookDelivery(w.deps, { creatorId: 'u2', endpointId: w.made.id, deliveryId: w.delivery.id })).rejects.toBeInstanceOf(NotFoundError);
    await retryWebhookDelivery(w.deps, { creatorId: 'u1', endpointId: w.made.id, deliveryId: w.delivery.id });
    expect(w.sent).toHaveLength(9);
    expect(w.sent[8]!.headers['webhook-id']).toBe(w.delivery.id);
    const { items } = await listWebhookDeliveries(w.deps, { creatorId: 'u1', endpointId: w.made.id, cursor: undefined });
    expect(items).toEqual([{ id: w.delivery.id, event: 'enrollment.created', status: 'delivered', attempts: 9, lastStatusCode: 200, nextAttemptAt: null, createdAt: w.delivery.createdAt }]);
    await expect(listWebhookDeliveries(w.deps, { creatorId: 'u2', endpointId: w.made.id, cursor: undefined })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('an endpoint failing for 5 days is disabled, its creator emailed once; nothing more is sent to it until it is enabled', async () => {
    const w = await world(() => ({ kind: 'answered', status: 503 }));
    const start = w.clock.now().getTime();
    const endpoint = () => w.endpoints.endpoints.get(w.made.id)!;
    await sweepDueDeliveries(w.deps, () => false, noWarn);
    expect(endpoint()).toMatchObject({ failingSince: new Date(start).toISOString(), disabledAt: null });
    // A new enrolment each hour, and every due attempt made, for 5 days: each fails.
    for (let hour = 1; hour <= 5 * 24; hour++) {
      w.clock.advance(3_600_000);
      await w.enrol(`evt-h${hour}`);
      await sweepDueDeliveries(w.deps, () => false, noWarn);
      if (hour < 5 * 24) expect(endpoint().disabledAt).toBeNull();
    }
    expect(endpoint()).toMatchObject({ disabledAt: new Date(start + 5 * 86_400_000).toISOString() });
    expect(w.endpoints.notices).toHaveLength(1);
    expect(w.endpoints.notices[0]).toMatchObject({ to: 'maker@example.com', subject: 'Course Platform: a webhook endpoint was disabled' });
    expect(w.endpoints.notices[0]!.text).toContain('https://hooks.example.com/in');
    expect(w.endpoints.notices[0]!.text).toContain('https://app.example.com/developers');
    // Its retries still due fail without a request; a new event has no delivery for it.
    const sent = w.sent.length;
    w.clock.advance(2 * 86_400_000);
    await sweepDueDeliveries(w.deps, () => false, noWarn);
    expect(w.sent).toHaveLength(sent);
    expect([...w.deliveries.deliveries.values()].filter((d) => d.status === 'pending')).toEqual([]);
    expect(await w.enrol('evt-while-disabled')).toEqual([]);
    expect(w.endpoints.notices).toHaveLength(1);
    // Enabled again (another creator cannot): its failures forgotten, new events delivered.
    await expect(enableWebhookEndpoint(w.deps, { creatorId: 'u2', endpointId: w.made.id })).rejects.toBeInstanceOf(NotFoundError);
    expect(await enableWebhookEndpoint(w.deps, { creatorId: 'u1', endpointId: w.made.id })).toMatchObject({ id: w.made.id, disabledAt: null });
    expect(endpoint().failingSince).toBeNull();
    expect(await w.enrol('evt-enabled')).toHaveLength(1);
  });

  it('an endpoint that fails now and then but still delivers is never disabled', async () => {
    // 500 all day, but 200 in the last hour of each day (UTC).
    const w = await world((at) => ({ kind: 'answered', status: at.getUTCHours() === 23 ? 200 : 500 }));
    for (let hour = 1; hour <= 7 * 24; hour++) {
      await sweepDueDeliveries(w.deps, () => false, noWarn);
      w.clock.advance(3_600_000);
      await w.enrol(`evt-h${hour}`);
    }
    expect(w.sent.length).toBeGreaterThan(7 * 24);
    expect(w.endpoints.endpoints.get(w.made.id)!.disabledAt).toBeNull();
    expect(w.endpoints.notices).toEqual([]);
  });

  it('a failed first attempt is retried by the same run about 5 s later, when the function has the time', async () => {
    const w = await world([{ kind: 'answered', status: 500 }]);
    const slept: number[] = [];
    const sleep = async (ms: number) => (slept.push(ms), w.clock.advance(ms));
    expect(await sweepDueDeliveries(w.deps, () => false, noWarn, { remainingMs: () => 25_000, sleep })).toMatchObject({ retrying: 1, delivered: 1 });
    expect(slept).toEqual([5_000]);
    expect(w.sent.map((r) => r.headers['webhook-id'])).toEqual([w.delivery.id, w.delivery.id]);
    expect(current(w)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('a run without the time for the wait and the attempt leaves the retry to the next run', async () => {
    const w = await world([{ kind: 'answered', status: 500 }]);
    const slept: number[] = [];
    expect(await sweepDueDeliveries(w.deps, () => false, noWarn, { remainingMs: () => 19_000, sleep: async (ms) => void slept.push(ms) })).toMatchObject({ retrying: 1, delivered: 0 });
    expect(slept).toEqual([]);
    expect(current(w)).toMatchObject({ status: 'pending', attempts: 1 });
  });
});

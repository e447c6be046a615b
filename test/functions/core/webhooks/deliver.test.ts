import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { attemptDelivery, sweepDueDeliveries } from '#core/webhooks/deliver.ts';
import { listWebhookDeliveries, retryWebhookDelivery } from '#core/webhooks/deliveries.ts';
import { NotFoundError } from '#core/errors.ts';
import { createWebhookEndpoint } from '#core/webhooks/endpoints.ts';
import { deliveriesOf, eventsOf } from '#core/webhooks/events.ts';
import type { WebhookAnswer, WebhookRequest } from '#core/webhooks/ports.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { countingCipher } from '#test/functions/fakes/integrations.ts';
import { memoryWebhookDeliveries, memoryWebhookEndpoints } from '#test/functions/fakes/webhooks.ts';

/** A creator with one endpoint, one enrolment's delivery due, and a receiver answering from `answers` (then 200). */
const world = async (answers: WebhookAnswer[] = []) => {
  // The real time: the receiver's library refuses a timestamp more than 5 minutes away.
  const clock = testClock(new Date().toISOString());
  const endpoints = memoryWebhookEndpoints();
  const cipher = countingCipher();
  const made = await createWebhookEndpoint({ endpoints, cipher, clock, ids: sequentialIds('ep'), randomSecret: () => randomBytes(32).toString('base64'), allowLocalHttp: false }, { creatorId: 'u1', body: { url: 'https://hooks.example.com/in', events: ['enrollment.created'] } });
  const sent: WebhookRequest[] = [];
  const sender = { send: async (request: WebhookRequest) => (sent.push(request), answers.shift() ?? ({ kind: 'answered', status: 200 } as const)) };
  const deliveries = memoryWebhookDeliveries();
  const change = { id: 'evt-1', kind: 'INSERT' as const, at: clock.now(), before: undefined, after: { sk: 'ENROLL#l1', status: 'active', creatorId: 'u1', courseId: 'c1', courseTitle: 'Clay', learnerId: 'l1', learnerEmail: 'ada@example.com', enrolledAt: clock.now().toISOString() } };
  const [delivery] = await deliveries.enqueue(deliveriesOf(change, eventsOf(change)[0]!, await endpoints.list('u1')));
  const deps = { endpoints, deliveries, cipher, sender, clock };
  return { deps, made, sent, delivery: delivery!, clock, deliveries, endpoints };
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
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookPayloadOf } from '#contracts/webhooks.ts';
import { webhookKeys } from '#data/webhooks.ts';
import { work as sweep } from '#functions/jobs/webhook-deliveries.ts';
import { runReactions } from '#functions/streams/reactions.ts';
import { webhookEvents } from '#functions/streams/reactions/webhook-events.ts';
import { scopedLog } from '#middleware/logger.ts';
import { accountWithRole, api, dynamo, eventually, givePlan, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Webhooks end to end (issue 31 points 4-5, decision 0053): one Pro creator and one receiver on 127.0.0.1 shared by
 * the cases; the receiver verifies each request with the standardwebhooks library and answers what `answers` says.
 */
const item = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;

type Received = { id: string; verified: boolean; body: { type: string; timestamp: string; data: Record<string, unknown> } };
const received: Received[] = [];
const answers: number[] = [];
let server: Server;
let origin: string;
let url: string;
let creator: Awaited<ReturnType<typeof accountWithRole>>;
let secret: string;
let endpointId: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified: boolean;
      try {
        new Webhook(secret).verify(raw, headers);
        verified = true;
      } catch {
        verified = false;
      }
      // A receiver that is down (/down/...) answers 503 to everything, and is not counted.
      if (req.url?.startsWith('/down/')) {
        res.statusCode = 503;
        res.end('down');
        return;
      }
      received.push({ id: headers['webhook-id'] ?? '', verified, body: JSON.parse(raw) as Received['body'] });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  url = `${origin}/hooks`;
  creator = await accountWithRole('creator', 'hooks-receiver');
  const made = await api('POST', '/api/webhook-endpoints', { token: creator.token, body: { url, events: ['enrollment.created', 'course.completed'] } });
  expect(made.status).toBe(201);
  secret = made.body.secret as string;
  endpointId = made.body.id as string;
}, 60_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('webhook endpoints', () => {
  it('show the secret once, keep it sealed, list without it, refuse a private URL with 400, and need Pro only to be made', async () => {
    const owner = await accountWithRole('creator', 'hooks-owner');
    const made = await api('POST', '/api/webhook-endpoints', { token: owner.token, body: { url: 'http://127.0.0.1:9/in', events: ['enrollment.created'] } });
    expect(made.status).toBe(201);
    const shown = made.body.secret as string;
    expect(shown).toMatch(/^whsec_/);
    expect(JSON.stringify(await item(webhookKeys.endpoint(owner.id, made.body.id)))).not.toContain(shown.slice(6));

    const list = await api('GET', '/api/webhook-endpoints', { token: owner.token });
    expect(list.body.items).toEqual([{ id: made.body.id, url: 'http://127.0.0.1:9/in', events: ['enrollment.created'], createdAt: expect.any(String), disabledAt: null }]);

    const metadata = await api('POST', '/api/webhook-endpoints', { token: owner.token, body: { url: 'https://169.254.169.254/latest/meta-data', events: ['order.paid'] } });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The address must be public: private, loopback and link-local addresses are not allowed.' });

    const other = await accountWithRole('creator', 'hooks-other', { plan: 'starter' });
    const refused = await api('POST', '/api/webhook-endpoints', { token: other.token, body: { url: 'https://hooks.example.com/in', events: ['order.paid'] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('PLAN_REQUIRED');
    expect((await api('DELETE', `/api/webhook-endpoints/${made.body.id}`, { token: other.token })).status).toBe(404);

    // Moved down to Starter: still lists and deletes.
    await givePlan(owner, 'starter');
    expect((await api('GET', '/api/webhook-endpoints', { token: owner.token })).body.items).toHaveLength(1);
    expect((await api('DELETE', `/api/webhook-endpoints/${made.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await api('GET', '/api/webhook-endpoints', { token: owner.token })).body.items).toEqual([]);
  });
});

describe('webhook deliveries', () => {
  it('an enrolment is told as a signed enrollment.created; a 500 gets the retry with the same webhook-id; then it is delivered', async () => {
    answers.push(500);
    const course = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Hooked on clay' } })).body.id as string;
    expect((await api('PATCH', `/api/courses/${course}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    const learner = await accountWithRole('learner', 'hooks-learner');
    expect((await api('POST', `/api/courses/${course}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);

    const first = await eventually(async () => received.filter((r) => r.body.data['courseId'] === course), (r) => r.length >= 1, 30_000);
    expect(first[0]).toMatchObject({ verified: true, body: { type: 'enrollment.created', data: { courseId: course, courseTitle: 'Hooked on clay', learner: { email: learner.email } } } });
    // The body is the documented shape (functions/contracts/webhooks.ts), as a receiver validating it reads it.
    expect(webhookPayloadOf('enrollment.created').safeParse(first[0]!.body).error).toBeUndefined();
    const id = first[0]!.id;
    const stored = await eventually(() => item(webhookKeys.delivery(endpointId, id)), (d) => d?.['attempts'] === 1, 10_000);
    expect(stored).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });

    // The sweep, as the every-minute job runs it, once the first retry's wait (5 s) has passed.
    useLocalCloudEnv();
    const later = new Date(Date.now() + 10_000);
    await sweep(() => 25_000, { clock: { now: () => later } })({ job: 'webhook-deliveries', run: 'test', lane: 'main', cursor: undefined } as never, () => false);
    const all = received.filter((r) => r.body.data['courseId'] === course);
    expect(all.map((r) => [r.id, r.verified])).toEqual([
      [id, true],
      [id, true],
    ]);
    expect(await item(webhookKeys.delivery(endpointId, id))).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200, nextAttemptAt: null });
    expect((await item(webhookKeys.delivery(endpointId, id)))?.['gsi3pk']).toBeUndefined();

    // The log shows it; another creator's endpoint and delivery are 404.
    const log = await api('GET', `/api/webhook-endpoints/${endpointId}/deliveries`, { token: creator.token });
    expect(log.status).toBe(200);
    expect(log.body.items[0]).toMatchObject({ id, event: 'enrollment.created', status: 'delivered', attempts: 2, lastStatusCode: 200, nextAttemptAt: null });
    const other = await accountWithRole('creator', 'hooks-stranger');
    expect((await api('POST', `/api/webhook-endpoints/${endpointId}/deliveries/${id}/retry`, { token: other.token })).status).toBe(404);
    expect((await api('GET', `/api/webhook-endpoints/${endpointId}/deliveries`, { token: other.token })).status).toBe(404);
    // A delivered one is not sent again.
    expect((await api('POST', `/api/webhook-endpoints/${endpointId}/deliveries/${id}/retry`, { token: creator.token })).status).toBe(202);
    expect(received.filter((r) => r.body.data['courseId'] === course)).toHaveLength(2);
  }, 60_000);

  it('a batch seen twice delivers once', async () => {
    useLocalCloudEnv();
    const before = received.length;
    const record = {
      eventID: `replay-${Date.now()}`,
      eventName: 'MODIFY' as const,
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        SequenceNumber: '1',
        Keys: { pk: { S: 'COURSE#replayed' }, sk: { S: 'ENROLL#l1' } },
        OldImage: { sk: { S: 'ENROLL#l1' }, status: { S: 'active' }, creatorId: { S: creator.id }, completedLessonIds: { L: [] }, completedAt: { NULL: true } },
        NewImage: {
          sk: { S: 'ENROLL#l1' }, status: { S: 'active' }, creatorId: { S: creator.id }, courseId: { S: 'replayed' }, courseTitle: { S: 'Replayed' }, learnerId: { S: 'l1' }, learnerEmail: { S: 'r@example.com' },
          completedLessonIds: { L: [] }, completedAt: { S: new Date().toISOString() },
        },
      },
    };
    const event = { Records: [record] } as unknown as DynamoDBStreamEvent;
    const log = scopedLog({ job: 'test' });
    await runReactions([webhookEvents as never], event, log);
    await runReactions([webhookEvents as never], event, log);
    // The job runs the batches started (and the every-minute one) would: whatever is due, twice over.
    for (let i = 0; i < 2; i++) await sweep(() => 25_000)({ job: 'webhook-deliveries', run: 'test', lane: 'main', cursor: undefined } as never, () => false);
    await eventually(() => Promise.resolve(received.slice(before).filter((r) => r.body.data['courseId'] === 'replayed').length), (n) => n >= 1, 15_000);
    const got = received.slice(before).filter((r) => r.body.data['courseId'] === 'replayed');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ verified: true, body: { type: 'course.completed', data: { courseId: 'replayed', learner: { id: 'l1', email: 'r@example.com' } } } });
    expect(webhookPayloadOf('course.completed').safeParse(got[0]!.body).error).toBeUndefined();
  }, 30_000);
});

describe('an endpoint that keeps failing', () => {
  const noticesQueued = async (to: string) =>
    (
      await dynamo().send(
        new QueryCommand({
          TableName: outputs().TableName,
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: '#to = :to AND subject = :subject',
          ExpressionAttributeNames: { '#to': 'to' },
          ExpressionAttributeValues: { ':pk': 'MAILQUEUE', ':to': to, ':subject': 'Course Platform: a webhook endpoint was disabled' },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [];
  const sweepAt = (at: Date) => sweep(() => 25_000, { clock: { now: () => at } })({ job: 'webhook-deliveries', run: `test-${at.getTime()}`, lane: 'main', cursor: undefined } as never, () => false);

  it('is disabled after 5 days, its creator emailed once; its owner alone enables it again', async () => {
    const owner = await accountWithRole('creator', 'hooks-failing');
    const made = await api('POST', '/api/webhook-endpoints', { token: owner.token, body: { url: `${origin}/down/in`, events: ['enrollment.created'] } });
    expect(made.status).toBe(201);
    const endpoint = webhookKeys.endpoint(owner.id, made.body.id as string);
    const course = (await api('POST', '/api/courses', { token: owner.token, body: { title: 'Down the wire' } })).body.id as string;
    expect((await api('PATCH', `/api/courses/${course}`, { token: owner.token, body: { status: 'published' } })).status).toBe(200);
    for (const tag of ['hooks-down-1', 'hooks-down-2']) {
      const learner = await accountWithRole('learner', tag);
      expect((await api('POST', `/api/courses/${course}/enrollments`, { token: owner.token, body: { email: learner.email } })).status).toBe(201);
    }
    // The first attempts (started by the stream) fail: the endpoint is failing since then.
    const failing = await eventually(() => item(endpoint), (e) => typeof e?.['failingSince'] === 'string', 30_000);
    expect(failing?.['disabledAt']).toBeNull();

    // Five days on, two sweeps at once retry both deliveries: both fail, one disables the endpoint and queues one notice.
    useLocalCloudEnv();
    const later = new Date(Date.parse(failing!['failingSince'] as string) + 5 * 86_400_000 + 60_000);
    await Promise.all([sweepAt(later), sweepAt(later)]);
    expect(await item(endpoint)).toMatchObject({ disabledAt: later.toISOString() });
    // Queued once, due at the sweep's (future) time: the mail sender sends it then.
    const queued = await noticesQueued(owner.email);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ dueAt: later.toISOString() });
    const listed = await api('GET', '/api/webhook-endpoints', { token: owner.token });
    expect(listed.body.items[0]).toMatchObject({ id: made.body.id, disabledAt: later.toISOString() });

    // Another creator cannot enable it; its owner can, and it is failing no more.
    const stranger = await accountWithRole('creator', 'hooks-failing-stranger');
    expect((await api('POST', `/api/webhook-endpoints/${made.body.id}/enable`, { token: stranger.token })).status).toBe(404);
    const enabled = await api('POST', `/api/webhook-endpoints/${made.body.id}/enable`, { token: owner.token });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ id: made.body.id, disabledAt: null });
    expect(await item(endpoint)).toMatchObject({ disabledAt: null, failingSince: null });
    expect(await noticesQueued(owner.email)).toHaveLength(1);
  }, 90_000);
});

import { createHash } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { type Delivery, type JobEventSource, startJobEventSource } from '#lib/local/sqs/event-source.ts';
import type { DeadLettered } from '#lib/local/sqs/queues.ts';
import { startSqsStandIn, type SqsStandIn } from '#lib/local/sqs/stand-in.ts';

/** Lambda's SQS event source, locally: the stand-in's queues, a poller per job, handlers loaded by the test. */
let standIn: SqsStandIn | undefined;
let source: JobEventSource | undefined;
afterEach(async () => {
  await source?.stop();
  await standIn?.stop();
  source = standIn = undefined;
});

type Seen = { event: SQSEvent; remainingMs: number };

const started = async (handler: (event: SQSEvent, context: Context) => Promise<unknown>, timeoutMs = 3_000) => {
  const deadLetters: DeadLettered[] = [];
  const deliveries: Delivery[] = [];
  standIn = await startSqsStandIn({ port: 0, onDeadLetter: (moved) => deadLetters.push(moved) });
  source = await startJobEventSource({
    endpoint: standIn.url,
    region: 'eu-west-2',
    jobs: [{ name: 'demo-job', handler: 'jobs/demo-job', timeoutMs }],
    visibilityTimeoutSeconds: () => 1,
    log: () => undefined,
    load: () => Promise.resolve(handler as never),
    onDelivery: (d) => deliveries.push(d),
  });
  const client = new SQSClient({ region: 'eu-west-2', endpoint: standIn.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const send = (body: string, id = body) =>
    client.send(new SendMessageCommand({ QueueUrl: source!.queueUrls['demo-job'], MessageBody: body, MessageGroupId: 'run/main', MessageDeduplicationId: id }));
  return { send, deliveries, deadLetters, queueUrl: source.queueUrls['demo-job']! };
};

const until = async (done: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('the local SQS event source of the sliced jobs', () => {
  it('invokes the job with the SQSEvent Lambda builds and a context with its timeout, and deletes what succeeded', async () => {
    const seen: Seen[] = [];
    const { send, deliveries, queueUrl } = await started(async (event, context) => {
      seen.push({ event, remainingMs: context.getRemainingTimeInMillis() });
      return { batchItemFailures: [] };
    });
    const sent = await send('{"seq":0}');
    await until(() => deliveries.length === 1);
    expect(deliveries[0]).toMatchObject({ job: 'demo-job', messageId: sent.MessageId, outcome: 'deleted', receiveCount: 1 });
    const [record] = seen[0]!.event.Records;
    expect(record).toEqual({
      messageId: sent.MessageId,
      receiptHandle: expect.any(String),
      body: '{"seq":0}',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d+$/),
        SenderId: expect.any(String),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d+$/),
        SequenceNumber: sent.SequenceNumber,
        MessageGroupId: 'run/main',
        MessageDeduplicationId: '{"seq":0}',
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update('{"seq":0}').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-2:000000000000:CoursePlatformJobs-demo-job.fifo',
      awsRegion: 'eu-west-2',
    });
    expect(seen[0]!.remainingMs).toBeGreaterThan(2_500);
    expect(seen[0]!.remainingMs).toBeLessThanOrEqual(3_000);
    expect(await source!.pending(queueUrl)).toBe(0);
  });

  it('leaves a reported, thrown or timed-out slice to come back after its visibility timeout, then moves it to the dead-letter queue', async () => {
    let calls = 0;
    const { send, deliveries, deadLetters, queueUrl } = await started(async (event) => {
      calls++;
      if (calls === 1) return { batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] };
      if (calls === 2) throw new Error('slice died');
      return new Promise(() => undefined); // never answers: the timeout ends it
    }, 300);
    await send('poison');
    await until(() => deadLetters.length === 1);
    expect(deliveries.map((d) => [d.outcome, d.receiveCount])).toEqual([
      ['failed', 1],
      ['threw', 2],
      ['timed-out', 3],
    ]);
    expect(deliveries[1]!.error).toBe('slice died');
    expect(deadLetters[0]).toMatchObject({ to: { name: 'CoursePlatformJobs-job-slices-dead-letters.fifo' }, message: { body: 'poison', receiveCount: 3 } });
    expect(await source!.pending(queueUrl)).toBe(0);
    expect(await source!.pending(source!.deadLetterQueueUrl)).toBe(1);
  });

  it('goes on with the next slice of a lane once the one before it succeeded, in order', async () => {
    const bodies: string[] = [];
    let failedOnce = false;
    const { send, deliveries } = await started(async (event) => {
      const body = event.Records[0]!.body;
      if (body === 'b' && !failedOnce) {
        failedOnce = true;
        throw new Error('killed mid-slice');
      }
      bodies.push(body);
      return { batchItemFailures: [] };
    });
    await send('a');
    await send('b');
    await send('c');
    await until(() => deliveries.filter((d) => d.outcome === 'deleted').length === 3);
    expect(bodies).toEqual(['a', 'b', 'c']);
  });

  it('with several pollers, runs the lanes of a run in parallel but never two slices of one lane at once', async () => {
    const running = new Map<string, number>();
    let overlapWithinLane = false;
    let parallelLanes = false;
    const { client, queueUrl, deliveries } = await (async () => {
      standIn = await startSqsStandIn({ port: 0 });
      const seen: Delivery[] = [];
      source = await startJobEventSource({
        endpoint: standIn.url,
        region: 'eu-west-2',
        jobs: [{ name: 'demo-job', handler: 'jobs/demo-job', timeoutMs: 3_000 }],
        concurrency: 3,
        log: () => undefined,
        load: () =>
          Promise.resolve((async (event: SQSEvent) => {
            const lane = event.Records[0]!.attributes.MessageGroupId!;
            if ((running.get(lane) ?? 0) > 0) overlapWithinLane = true;
            running.set(lane, (running.get(lane) ?? 0) + 1);
            if ([...running.values()].filter((n) => n > 0).length > 1) parallelLanes = true;
            await new Promise((resolve) => setTimeout(resolve, 100));
            running.set(lane, running.get(lane)! - 1);
            return { batchItemFailures: [] };
          }) as never),
        onDelivery: (d) => seen.push(d),
      });
      const sqs = new SQSClient({ region: 'eu-west-2', endpoint: standIn.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
      return { client: sqs, queueUrl: source.queueUrls['demo-job']!, deliveries: seen };
    })();
    for (const lane of ['a', 'b']) {
      for (let seq = 0; seq < 3; seq++) {
        await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: `${lane}${seq}`, MessageGroupId: lane, MessageDeduplicationId: `${lane}${seq}` }));
      }
    }
    await until(() => deliveries.length === 6);
    expect(overlapWithinLane).toBe(false);
    expect(parallelLanes).toBe(true);
  });
  it("runs no more slices of a queue at once than its job's maximum concurrency, however many pollers are asked", async () => {
    let running = 0;
    let most = 0;
    standIn = await startSqsStandIn({ port: 0 });
    const deliveries: Delivery[] = [];
    source = await startJobEventSource({
      endpoint: standIn.url,
      region: 'eu-west-2',
      jobs: [{ name: 'demo-job', handler: 'jobs/demo-job', timeoutMs: 3_000, maxConcurrency: 2 }],
      concurrency: 6,
      log: () => undefined,
      load: () =>
        Promise.resolve((async () => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 150));
          running--;
          return { batchItemFailures: [] };
        }) as never),
      onDelivery: (d) => deliveries.push(d),
    });
    const client = new SQSClient({ region: 'eu-west-2', endpoint: standIn.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    // Six lanes of one slice each: six pollers would run them all at once.
    for (const lane of ['a', 'b', 'c', 'd', 'e', 'f']) {
      await client.send(new SendMessageCommand({ QueueUrl: source.queueUrls['demo-job'], MessageBody: lane, MessageGroupId: lane, MessageDeduplicationId: lane }));
    }
    await until(() => deliveries.length === 6);
    expect(most).toBe(2);
    client.destroy();
  });
});

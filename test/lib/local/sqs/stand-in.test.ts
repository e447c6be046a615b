import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  MessageNotInflight,
  PurgeQueueCommand,
  QueueDoesNotExist,
  QueueNameExists,
  ReceiptHandleIsInvalid,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
  BatchEntryIdsNotDistinct,
} from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeadLettered } from '#lib/local/sqs/queues.ts';
import { startSqsStandIn, type SqsStandIn } from '#lib/local/sqs/stand-in.ts';

/** The SQS stand-in through the official SDK (the version the job engine's adapter uses), on a clock the test moves. */
let standIn: SqsStandIn | undefined;
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
});

const started = async () => {
  let clock = Date.parse('2026-11-27T10:00:00Z');
  const deadLetters: DeadLettered[] = [];
  standIn = await startSqsStandIn({ port: 0, now: () => clock, onDeadLetter: (moved) => deadLetters.push(moved) });
  const client = new SQSClient({ region: 'eu-west-2', endpoint: standIn.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const advance = (ms: number) => {
    clock += ms;
    standIn!.wake();
  };
  const counts = async (QueueUrl: string) => {
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    return { visible: Number(Attributes!.ApproximateNumberOfMessages), inFlight: Number(Attributes!.ApproximateNumberOfMessagesNotVisible) };
  };
  const fifoPair = async (maxReceiveCount = 3, visibility = 30) => {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: 'jobs-dlq.fifo', Attributes: { FifoQueue: 'true' } }));
    const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl!, AttributeNames: ['QueueArn'] }));
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: 'credit-reset.fifo',
        Attributes: {
          FifoQueue: 'true',
          VisibilityTimeout: String(visibility),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount }),
        },
      }),
    );
    return { queueUrl: queue.QueueUrl!, dlqUrl: dlq.QueueUrl! };
  };
  return { client, advance, counts, fifoPair, deadLetters };
};

const send = (client: SQSClient, QueueUrl: string, body: string, group: string, dedup = body) =>
  client.send(new SendMessageCommand({ QueueUrl, MessageBody: body, MessageGroupId: group, MessageDeduplicationId: dedup }));

const receive = (client: SQSClient, QueueUrl: string, max = 1, extra: { WaitTimeSeconds?: number; VisibilityTimeout?: number } = {}) =>
  client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: max, MessageSystemAttributeNames: ['All'], ...extra })).then((r) => r.Messages ?? []);

describe('the local SQS stand-in', () => {
  it('creates queues with their attributes, finds them by name, and refuses a different queue under the same name', async () => {
    const { client, fifoPair } = await started();
    const { queueUrl } = await fifoPair();
    expect(queueUrl).toBe(`${standIn!.url}/000000000000/credit-reset.fifo`);
    expect((await client.send(new GetQueueUrlCommand({ QueueName: 'credit-reset.fifo' }))).QueueUrl).toBe(queueUrl);
    const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }));
    expect(Attributes).toMatchObject({
      FifoQueue: 'true',
      VisibilityTimeout: '30',
      QueueArn: 'arn:aws:sqs:eu-west-2:000000000000:credit-reset.fifo',
      ApproximateNumberOfMessages: '0',
    });
    expect(JSON.parse(Attributes!.RedrivePolicy!)).toEqual({ deadLetterTargetArn: 'arn:aws:sqs:eu-west-2:000000000000:jobs-dlq.fifo', maxReceiveCount: 3 });
    // The same name and attributes again: the same queue.
    expect((await client.send(new CreateQueueCommand({ QueueName: 'jobs-dlq.fifo', Attributes: { FifoQueue: 'true' } }))).QueueUrl).toContain('jobs-dlq.fifo');
    await expect(client.send(new CreateQueueCommand({ QueueName: 'jobs-dlq.fifo', Attributes: { FifoQueue: 'true', VisibilityTimeout: '5' } }))).rejects.toBeInstanceOf(QueueNameExists);
    await expect(client.send(new CreateQueueCommand({ QueueName: 'not-fifo', Attributes: { FifoQueue: 'true' } }))).rejects.toThrow(/\.fifo suffix/);
    await expect(client.send(new GetQueueUrlCommand({ QueueName: 'nothing.fifo' }))).rejects.toBeInstanceOf(QueueDoesNotExist);
    await expect(receive(client, `${standIn!.url}/000000000000/nothing`)).rejects.toBeInstanceOf(QueueDoesNotExist);
  });

  it('sends, receives with the system attributes Lambda reads, deletes; the SDK checks every body MD5', async () => {
    const { client, counts, fifoPair } = await started();
    const { queueUrl } = await fifoPair();
    const sent = await send(client, queueUrl, '{"seq":0}', 'run-1');
    expect(sent.MessageId).toBeTruthy();
    expect(sent.SequenceNumber).toMatch(/^\d{20}$/);
    const batch = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [
          { Id: 'a', MessageBody: '{"seq":1}', MessageGroupId: 'run-2', MessageDeduplicationId: 'b1' },
          { Id: 'b', MessageBody: '{"seq":2}', MessageGroupId: 'run-3', MessageDeduplicationId: 'b2' },
          { Id: 'c', MessageBody: 'no group' },
        ],
      }),
    );
    expect(batch.Successful!.map((s) => s.Id)).toEqual(['a', 'b']);
    expect(batch.Failed).toEqual([expect.objectContaining({ Id: 'c', SenderFault: true, Code: 'MissingParameter' })]);
    expect(await counts(queueUrl)).toEqual({ visible: 3, inFlight: 0 });

    const [message] = await receive(client, queueUrl);
    expect(message).toMatchObject({ MessageId: sent.MessageId, Body: '{"seq":0}' });
    expect(message!.Attributes).toMatchObject({
      ApproximateReceiveCount: '1',
      MessageGroupId: 'run-1',
      MessageDeduplicationId: '{"seq":0}',
      SenderId: expect.any(String),
      SentTimestamp: expect.stringMatching(/^\d+$/),
      ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d+$/),
      SequenceNumber: sent.SequenceNumber,
    });
    expect(await counts(queueUrl)).toEqual({ visible: 2, inFlight: 1 });
    await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message!.ReceiptHandle! }));
    expect(await counts(queueUrl)).toEqual({ visible: 2, inFlight: 0 });

    const two = await receive(client, queueUrl, 10);
    expect(two.map((m) => m.Body)).toEqual(['{"seq":1}', '{"seq":2}']);
    const deleted = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [...two.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: m.ReceiptHandle! })), { Id: 'bad', ReceiptHandle: 'made-up' }],
      }),
    );
    expect(deleted.Successful!.map((s) => s.Id)).toEqual(['d0', 'd1']);
    expect(deleted.Failed).toEqual([expect.objectContaining({ Id: 'bad', Code: 'ReceiptHandleIsInvalid' })]);
    expect(await counts(queueUrl)).toEqual({ visible: 0, inFlight: 0 });
    await expect(client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: 'made-up' }))).rejects.toBeInstanceOf(ReceiptHandleIsInvalid);
    await expect(
      client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [{ Id: 'x', MessageBody: 'a' }, { Id: 'x', MessageBody: 'b' }] })),
    ).rejects.toBeInstanceOf(BatchEntryIdsNotDistinct);
  });

  it('drops a FIFO message whose deduplication id it saw in the last 5 minutes, and answers with the first one', async () => {
    const { client, advance, counts, fifoPair } = await started();
    const { queueUrl } = await fifoPair();
    const first = await send(client, queueUrl, 'slice 1', 'lane', 'run/main/1');
    const again = await send(client, queueUrl, 'slice 1 (retried)', 'lane', 'run/main/1');
    expect(again.MessageId).toBe(first.MessageId);
    expect(await counts(queueUrl)).toEqual({ visible: 1, inFlight: 0 });
    // Still within the window after the first is deleted.
    const [message] = await receive(client, queueUrl);
    await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message!.ReceiptHandle! }));
    advance(4 * 60_000);
    await send(client, queueUrl, 'slice 1 (late)', 'lane', 'run/main/1');
    expect(await counts(queueUrl)).toEqual({ visible: 0, inFlight: 0 });
    advance(61_000);
    const later = await send(client, queueUrl, 'slice 1 (after the window)', 'lane', 'run/main/1');
    expect(later.MessageId).not.toBe(first.MessageId);
    expect(await counts(queueUrl)).toEqual({ visible: 1, inFlight: 0 });
  });

  it('keeps a FIFO group in order and delivers none of it while one of its messages is in flight; other groups go on', async () => {
    const { client, fifoPair } = await started();
    const { queueUrl } = await fifoPair();
    await send(client, queueUrl, 'a1', 'a');
    await send(client, queueUrl, 'a2', 'a');
    await send(client, queueUrl, 'b1', 'b');
    const [a1] = await receive(client, queueUrl);
    expect(a1!.Body).toBe('a1');
    const [b1] = await receive(client, queueUrl);
    expect(b1!.Body).toBe('b1');
    expect(await receive(client, queueUrl)).toEqual([]);
    await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: a1!.ReceiptHandle! }));
    expect((await receive(client, queueUrl)).map((m) => m.Body)).toEqual(['a2']);
  });

  it('delivers a message again once its visibility timeout ends (or is changed), with its receive count', async () => {
    const { client, advance, fifoPair } = await started();
    const { queueUrl } = await fifoPair(3, 10);
    await send(client, queueUrl, 'work', 'g');
    const [first] = await receive(client, queueUrl);
    advance(9_000);
    expect(await receive(client, queueUrl)).toEqual([]);
    advance(1_001);
    const [second] = await receive(client, queueUrl);
    expect(second).toMatchObject({ MessageId: first!.MessageId, Attributes: expect.objectContaining({ ApproximateReceiveCount: '2' }) });
    // The old handle no longer deletes it (FIFO).
    await expect(client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: first!.ReceiptHandle! }))).rejects.toBeInstanceOf(ReceiptHandleIsInvalid);
    // Visibility 0: back at once; a message not in flight cannot be changed.
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: second!.ReceiptHandle!, VisibilityTimeout: 0 }));
    await expect(
      client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: second!.ReceiptHandle!, VisibilityTimeout: 5 })),
    ).rejects.toBeInstanceOf(MessageNotInflight);
    const [third] = await receive(client, queueUrl, 1, { VisibilityTimeout: 60 });
    expect(third!.Attributes!.ApproximateReceiveCount).toBe('3');
    advance(30_000);
    expect(await receive(client, queueUrl)).toEqual([]);
  });

  it('moves a message to the dead-letter queue after maxReceiveCount receives, and says so', async () => {
    const { client, advance, counts, fifoPair, deadLetters } = await started();
    const { queueUrl, dlqUrl } = await fifoPair(2, 5);
    await send(client, queueUrl, 'poison', 'g');
    await send(client, queueUrl, 'next in its group', 'g', 'next');
    for (let n = 1; n <= 2; n++) {
      const [message] = await receive(client, queueUrl);
      expect(message!.Body).toBe('poison');
      advance(5_001);
    }
    // The third receive moves it and goes on with its group.
    expect((await receive(client, queueUrl)).map((m) => m.Body)).toEqual(['next in its group']);
    expect(await counts(dlqUrl)).toEqual({ visible: 1, inFlight: 0 });
    expect(deadLetters.map((d) => [d.from.name, d.to.name, d.message.body, d.message.receiveCount])).toEqual([['credit-reset.fifo', 'jobs-dlq.fifo', 'poison', 2]]);
    const [dead] = await receive(client, dlqUrl);
    expect(dead).toMatchObject({ Body: 'poison', Attributes: expect.objectContaining({ MessageGroupId: 'g' }) });
  });

  it('long-polls: a receive waiting on an empty queue answers as soon as a message arrives', async () => {
    const { client, fifoPair } = await started();
    const { queueUrl } = await fifoPair();
    const started_ = Date.now();
    const waiting = receive(client, queueUrl, 1, { WaitTimeSeconds: 10 });
    setTimeout(() => void send(client, queueUrl, 'late', 'g'), 200);
    expect((await waiting).map((m) => m.Body)).toEqual(['late']);
    expect(Date.now() - started_).toBeLessThan(5_000);
    // An empty queue after the wait: no message, no error.
    expect(await receive(client, queueUrl, 1, { WaitTimeSeconds: 1 })).toEqual([]);
  });

  it('purges a queue, and works as a standard queue too (no group, no deduplication)', async () => {
    const { client, counts } = await started();
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: 'plain' }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'same' }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'same' }));
    expect(await counts(QueueUrl!)).toEqual({ visible: 2, inFlight: 0 });
    expect(await receive(client, QueueUrl!, 10)).toHaveLength(2);
    await client.send(new PurgeQueueCommand({ QueueUrl }));
    expect(await counts(QueueUrl!)).toEqual({ visible: 0, inFlight: 0 });
    await expect(client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'x', MessageGroupId: 'g' }))).rejects.toThrow(/not valid for this queue type/);
  });
});

import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { readBody } from '../http-replies.ts';
import { closeServer, listenAt } from '../http-server.ts';
import { type DeadLettered, type MessageAttributeValue, type Queue, SqsError, sqsQueues, type StoredMessage } from './queues.ts';

/**
 * The local Amazon SQS, for the job engine's queues (docs/decisions/0032-jobs-in-slices.md): the AWS JSON 1.0 protocol
 * (`POST /`, `X-Amz-Target: AmazonSQS.<Operation>`, `application/x-amz-json-1.0`) as `@aws-sdk/client-sqs` sends it,
 * so the same adapter (functions/adapters/sqs-slice-queue.ts) runs here and in AWS. No SQS emulator is on the registry
 * (TOOLCHAIN.md). Operations: CreateQueue, GetQueueUrl, GetQueueAttributes, SetQueueAttributes, ListQueues,
 * DeleteQueue, SendMessage, SendMessageBatch, ReceiveMessage (long polling), DeleteMessage, DeleteMessageBatch,
 * ChangeMessageVisibility, PurgeQueue; any other is UnsupportedOperation. Errors are SQS's JSON error shape (`__type`
 * `com.amazonaws.sqs#<Name>` and the `x-amzn-query-error` header), so the SDK raises its named exceptions
 * (QueueDoesNotExist, ReceiptHandleIsInvalid, ...). Semantics: lib/local/sqs/queues.ts.
 *
 * State is in memory only: stopping the local cloud loses the slices still queued (the runs they belong to start
 * again at their job's next schedule; each item is idempotent, so nothing is done twice). Test control (not SQS's
 * API): `GET /_stand-in/queues`, each queue's counts.
 */
export interface SqsStandInOptions {
  port: number;
  host?: string;
  region?: string;
  /** Called when a message is moved to a dead-letter queue after its queue's maxReceiveCount receives. */
  onDeadLetter?: (moved: DeadLettered) => void;
  /** The clock (tests move it); default Date.now. */
  now?: () => number;
}

export interface SqsStandIn {
  url: string;
  region: string;
  /** The queues, for tests and the local event source's log. */
  queues: ReadonlyMap<string, Queue>;
  /** Wakes the long polls waiting (tests that move the clock). */
  wake(): void;
  stop(): Promise<void>;
}

/** The system attributes a receive may ask for ('All' gives every one). */
const systemAttributeNames = ['SenderId', 'SentTimestamp', 'ApproximateReceiveCount', 'ApproximateFirstReceiveTimestamp', 'MessageGroupId', 'MessageDeduplicationId', 'SequenceNumber'] as const;
const SENDER_ID = 'AIDALOCALSQSSTANDIN00';

const systemAttributes = (message: StoredMessage): Record<string, string | undefined> => ({
  SenderId: SENDER_ID,
  SentTimestamp: String(message.sentAt),
  ApproximateReceiveCount: String(message.receiveCount),
  ApproximateFirstReceiveTimestamp: String(message.firstReceiveAt ?? message.sentAt),
  MessageGroupId: message.groupId,
  MessageDeduplicationId: message.deduplicationId,
  SequenceNumber: message.sequenceNumber,
});

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A batch's entries: 1 to 10, distinct ids of [A-Za-z0-9_-]{1,80}. */
const batchEntries = <T extends { Id?: unknown }>(raw: unknown): T[] => {
  const entries = Array.isArray(raw) ? (raw as T[]) : [];
  if (entries.length === 0) throw new SqsError('EmptyBatchRequest', 'There should be at least one entry in the request.', 'AWS.SimpleQueueService.EmptyBatchRequest');
  if (entries.length > 10) throw new SqsError('TooManyEntriesInBatchRequest', `Maximum number of entries per request are 10. You have sent ${entries.length}.`, 'AWS.SimpleQueueService.TooManyEntriesInBatchRequest');
  const ids = new Set<string>();
  for (const entry of entries) {
    if (typeof entry.Id !== 'string' || !/^[A-Za-z0-9_-]{1,80}$/.test(entry.Id)) {
      throw new SqsError('InvalidBatchEntryId', 'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.', 'AWS.SimpleQueueService.InvalidBatchEntryId');
    }
    if (ids.has(entry.Id)) throw new SqsError('BatchEntryIdsNotDistinct', `Id ${entry.Id} repeated.`, 'AWS.SimpleQueueService.BatchEntryIdsNotDistinct');
    ids.add(entry.Id);
  }
  return entries;
};

const failure = (id: string, error: unknown) => {
  const e = error instanceof SqsError ? error : new SqsError('InternalError', (error as Error).message);
  return { Id: id, SenderFault: e.status < 500, Code: e.queryCode, Message: e.message };
};

export const startSqsStandIn = async (options: SqsStandInOptions): Promise<SqsStandIn> => {
  const region = options.region ?? 'eu-west-2';
  const now = options.now ?? Date.now;
  let url = '';
  const state = sqsQueues({ baseUrl: () => url, region, now, ...(options.onDeadLetter ? { onDeadLetter: options.onDeadLetter } : {}) });
  /** Long polls waiting for a message: woken by every change, and on stop. */
  const waiters = new Set<() => void>();
  let stopping = false;
  const wake = () => {
    for (const w of [...waiters]) w();
  };

  const receive = async (input: Record<string, unknown>) => {
    const queue = state.queueOf(input['QueueUrl']);
    const max = input['MaxNumberOfMessages'] === undefined ? 1 : Number(input['MaxNumberOfMessages']);
    if (!Number.isInteger(max) || max < 1 || max > 10) {
      throw new SqsError('InvalidParameterValue', `Value ${String(input['MaxNumberOfMessages'])} for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.`);
    }
    const visibility = input['VisibilityTimeout'] === undefined ? Number(queue.attributes['VisibilityTimeout']) : Number(input['VisibilityTimeout']);
    if (!Number.isInteger(visibility) || visibility < 0 || visibility > 43_200) {
      throw new SqsError('InvalidParameterValue', `Value ${String(input['VisibilityTimeout'])} for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and 43200, if provided.`);
    }
    const waitSeconds = input['WaitTimeSeconds'] === undefined ? Number(queue.attributes['ReceiveMessageWaitTimeSeconds']) : Number(input['WaitTimeSeconds']);
    if (!Number.isInteger(waitSeconds) || waitSeconds < 0 || waitSeconds > 20) {
      throw new SqsError('InvalidParameterValue', `Value ${String(input['WaitTimeSeconds'])} for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.`);
    }
    const deadline = Date.now() + waitSeconds * 1000;
    let taken = state.receiveNow(queue, max, visibility);
    while (taken.length === 0 && !stopping && Date.now() < deadline) {
      // Until a change wakes it, or the next message of the queue becomes visible, or the wait is over.
      const next = state.nextVisibleAt(queue);
      const sleep = Math.max(5, Math.min(deadline - Date.now(), next === undefined ? Infinity : next - now() + 5));
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, sleep);
        waiters.add(done);
      });
      if (state.queues.get(queue.name) !== queue) break;
      taken = state.receiveNow(queue, max, visibility);
    }
    const wanted = new Set([...stringList(input['MessageSystemAttributeNames']), ...stringList(input['AttributeNames'])]);
    const all = wanted.has('All');
    const attributeNames = new Set(stringList(input['MessageAttributeNames']));
    return {
      Messages: taken.map((message) => {
        const attributes = Object.fromEntries(
          systemAttributeNames.filter((name) => all || wanted.has(name)).flatMap((name) => {
            const value = systemAttributes(message)[name];
            return value === undefined ? [] : [[name, value]];
          }),
        );
        const messageAttributes = Object.fromEntries(
          Object.entries(message.attributes).filter(([name]) => attributeNames.has('All') || attributeNames.has('.*') || attributeNames.has(name) || [...attributeNames].some((n) => n.endsWith('.*') && name.startsWith(n.slice(0, -1)))),
        ) as Record<string, MessageAttributeValue>;
        return {
          MessageId: message.messageId,
          ReceiptHandle: message.receiptHandle,
          MD5OfBody: message.md5OfBody,
          Body: message.body,
          ...(Object.keys(attributes).length > 0 ? { Attributes: attributes } : {}),
          ...(Object.keys(messageAttributes).length > 0 ? { MessageAttributes: messageAttributes } : {}),
        };
      }),
    };
  };

  const sendInput = (entry: Record<string, unknown>) => ({
    body: entry['MessageBody'],
    groupId: entry['MessageGroupId'],
    deduplicationId: entry['MessageDeduplicationId'],
    delaySeconds: entry['DelaySeconds'],
    attributes: entry['MessageAttributes'],
  });

  const sentOutput = (sent: ReturnType<typeof state.send>) => ({
    MessageId: sent.messageId,
    MD5OfMessageBody: sent.md5OfBody,
    ...(sent.md5OfAttributes ? { MD5OfMessageAttributes: sent.md5OfAttributes } : {}),
    ...(sent.sequenceNumber ? { SequenceNumber: sent.sequenceNumber } : {}),
  });

  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    CreateQueue: (input) => {
      const queue = state.createQueue(String(input['QueueName'] ?? ''), (input['Attributes'] ?? {}) as Record<string, string>);
      return { QueueUrl: queue.url };
    },
    GetQueueUrl: (input) => {
      const queue = state.queues.get(String(input['QueueName'] ?? ''));
      if (!queue) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.', 'AWS.SimpleQueueService.NonExistentQueue');
      return { QueueUrl: queue.url };
    },
    ListQueues: (input) => {
      const prefix = typeof input['QueueNamePrefix'] === 'string' ? input['QueueNamePrefix'] : '';
      return { QueueUrls: [...state.queues.values()].filter((q) => q.name.startsWith(prefix)).map((q) => q.url) };
    },
    DeleteQueue: (input) => {
      state.deleteQueue(state.queueOf(input['QueueUrl']));
      wake();
      return {};
    },
    GetQueueAttributes: (input) => {
      const all = state.attributesOf(state.queueOf(input['QueueUrl']));
      const names = stringList(input['AttributeNames']);
      if (names.length === 0) return {};
      if (names.includes('All')) return { Attributes: all };
      const unknown = names.find((n) => !(n in all) && !['RedrivePolicy', 'DelaySeconds', 'ContentBasedDeduplication', 'FifoQueue', 'KmsMasterKeyId', 'Policy', 'RedriveAllowPolicy'].includes(n));
      if (unknown) throw new SqsError('InvalidAttributeName', `Unknown Attribute ${unknown}.`);
      return { Attributes: Object.fromEntries(names.filter((n) => n in all).map((n) => [n, all[n]!])) };
    },
    SetQueueAttributes: (input) => {
      const queue = state.queueOf(input['QueueUrl']);
      state.setAttributes(queue, (input['Attributes'] ?? {}) as Record<string, string>);
      return {};
    },
    SendMessage: (input) => {
      const out = sentOutput(state.send(state.queueOf(input['QueueUrl']), sendInput(input)));
      wake();
      return out;
    },
    SendMessageBatch: (input) => {
      const queue = state.queueOf(input['QueueUrl']);
      const entries = batchEntries<Record<string, unknown> & { Id: string }>(input['Entries']);
      const Successful: unknown[] = [];
      const Failed: unknown[] = [];
      for (const entry of entries) {
        try {
          Successful.push({ Id: entry.Id, ...sentOutput(state.send(queue, sendInput(entry))) });
        } catch (error) {
          Failed.push(failure(entry.Id, error));
        }
      }
      wake();
      return { Successful, Failed };
    },
    DeleteMessage: (input) => {
      state.deleteMessage(state.queueOf(input['QueueUrl']), input['ReceiptHandle']);
      wake();
      return {};
    },
    DeleteMessageBatch: (input) => {
      const queue = state.queueOf(input['QueueUrl']);
      const entries = batchEntries<{ Id: string; ReceiptHandle?: unknown }>(input['Entries']);
      const Successful: unknown[] = [];
      const Failed: unknown[] = [];
      for (const entry of entries) {
        try {
          state.deleteMessage(queue, entry.ReceiptHandle);
          Successful.push({ Id: entry.Id });
        } catch (error) {
          Failed.push(failure(entry.Id, error));
        }
      }
      wake();
      return { Successful, Failed };
    },
    ChangeMessageVisibility: (input) => {
      state.changeVisibility(state.queueOf(input['QueueUrl']), input['ReceiptHandle'], input['VisibilityTimeout']);
      wake();
      return {};
    },
    ReceiveMessage: receive,
    PurgeQueue: (input) => {
      state.purge(state.queueOf(input['QueueUrl']));
      wake();
      return {};
    },
  };

  const reply = (res: ServerResponse, status: number, body: unknown, queryError?: string) => {
    res.writeHead(status, {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': randomUUID(),
      ...(queryError ? { 'x-amzn-query-error': queryError } : {}),
    });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === '/_stand-in/queues') {
        return reply(res, 200, [...state.queues.values()].map((q) => ({ name: q.name, url: q.url, ...state.attributesOf(q) })));
      }
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
      try {
        const input = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
        const run = req.method === 'POST' ? operations[operation] : undefined;
        if (!run) throw new SqsError('UnsupportedOperation', `The local SQS stand-in does not offer ${operation || 'that'}.`, 'AWS.SimpleQueueService.UnsupportedOperation');
        reply(res, 200, await run(input));
      } catch (error) {
        const e = error instanceof SqsError ? error : new SqsError('InternalError', (error as Error).message, 'InternalError', 500);
        reply(res, e.status, { __type: `com.amazonaws.sqs#${e.type}`, message: e.message }, `${e.queryCode};${e.status < 500 ? 'Sender' : 'Receiver'}`);
      }
    })();
  });
  url = await listenAt(server, options.port, options.host ?? '127.0.0.1');
  return {
    url,
    region,
    queues: state.queues,
    wake,
    stop: async () => {
      stopping = true;
      wake();
      await closeServer(server);
    },
  };
};

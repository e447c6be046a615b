import { createHash, randomUUID } from 'node:crypto';

/**
 * The state and rules of the local SQS (lib/local/sqs/stand-in.ts speaks the API over it): queues in memory, with
 * SQS's semantics for what the job engine relies on (docs/decisions/0032-jobs-in-slices.md): visibility timeout,
 * receive counts and redrive to a dead-letter queue, and for FIFO queues per-group order, a group blocked while one
 * of its messages is in flight, and deduplication by MessageDeduplicationId for 5 minutes.
 */

export class SqsError extends Error {
  constructor(
    /** The error's name in SQS's JSON protocol (`__type` after the `#`), the SDK's exception class where modelled. */
    readonly type: string,
    message: string,
    /** The AWS query protocol's code (the `x-amzn-query-error` header), where it differs from `type`. */
    readonly queryCode: string = type,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface MessageAttributeValue {
  readonly DataType: string;
  readonly StringValue?: string;
  readonly BinaryValue?: string;
}

export interface StoredMessage {
  readonly messageId: string;
  readonly body: string;
  readonly md5OfBody: string;
  readonly attributes: Readonly<Record<string, MessageAttributeValue>>;
  readonly groupId?: string;
  readonly deduplicationId?: string;
  readonly sequenceNumber?: string;
  readonly sentAt: number;
  /** When it may be received (sent + delay, or the end of its visibility timeout). */
  visibleAt: number;
  receiveCount: number;
  firstReceiveAt?: number;
  /** The handle of its latest receive; in flight while `visibleAt` is in the future. */
  receiptHandle?: string;
}

export interface RedrivePolicy {
  readonly deadLetterTargetArn: string;
  readonly maxReceiveCount: number;
}

export interface Queue {
  readonly name: string;
  readonly url: string;
  readonly arn: string;
  readonly fifo: boolean;
  readonly createdAt: number;
  /** Every attribute as SQS keeps it (strings). */
  readonly attributes: Record<string, string>;
  messages: StoredMessage[];
  /** FIFO: deduplication id -> the message id it was given and when the id stops counting. */
  readonly deduplication: Map<string, { messageId: string; sequenceNumber: string; until: number }>;
}

/** What a message moved to a dead-letter queue was, for the local cloud's log and its dead-letter store. */
export interface DeadLettered {
  readonly from: Queue;
  readonly to: Queue;
  readonly message: StoredMessage;
}

export const DEDUPLICATION_WINDOW_MS = 5 * 60_000;
const ACCOUNT = '000000000000';
const MAX_VISIBILITY_TIMEOUT = 43_200;
const MAX_BODY_BYTES = 262_144;

const settable = new Set([
  'DelaySeconds',
  'MaximumMessageSize',
  'MessageRetentionPeriod',
  'ReceiveMessageWaitTimeSeconds',
  'VisibilityTimeout',
  'RedrivePolicy',
  'RedriveAllowPolicy',
  'FifoQueue',
  'ContentBasedDeduplication',
  'DeduplicationScope',
  'FifoThroughputLimit',
  'SqsManagedSseEnabled',
  'KmsMasterKeyId',
  'KmsDataKeyReusePeriodSeconds',
  'Policy',
]);

const defaults: Record<string, string> = {
  DelaySeconds: '0',
  MaximumMessageSize: String(MAX_BODY_BYTES),
  MessageRetentionPeriod: '345600',
  ReceiveMessageWaitTimeSeconds: '0',
  VisibilityTimeout: '30',
  SqsManagedSseEnabled: 'true',
};

export const md5 = (text: string | Buffer): string => createHash('md5').update(text).digest('hex');

/** SQS's MD5 of message attributes: names sorted, each name, type, transport byte and value length-prefixed. */
export const md5OfAttributes = (attributes: Readonly<Record<string, MessageAttributeValue>>): string => {
  const parts: Buffer[] = [];
  const prefixed = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    parts.push(length, bytes);
  };
  for (const name of Object.keys(attributes).sort()) {
    const value = attributes[name]!;
    prefixed(Buffer.from(name, 'utf8'));
    prefixed(Buffer.from(value.DataType, 'utf8'));
    if (value.BinaryValue !== undefined) {
      parts.push(Buffer.from([2]));
      prefixed(Buffer.from(value.BinaryValue, 'base64'));
    } else {
      parts.push(Buffer.from([1]));
      prefixed(Buffer.from(value.StringValue ?? '', 'utf8'));
    }
  }
  return md5(Buffer.concat(parts));
};

const integerIn = (name: string, raw: unknown, low: number, high: number): number => {
  const value = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(value) || value < low || value > high) {
    throw new SqsError('InvalidParameterValue', `Value ${String(raw)} for parameter ${name} is invalid. Reason: must be between ${low} and ${high}.`);
  }
  return value;
};

export const parseRedrivePolicy = (raw: string): RedrivePolicy => {
  let parsed: Partial<RedrivePolicy> & { maxReceiveCount?: unknown };
  try {
    parsed = JSON.parse(raw) as typeof parsed;
  } catch {
    throw new SqsError('InvalidAttributeValue', 'Invalid value for the parameter RedrivePolicy. Reason: Redrive policy is not a valid JSON map.');
  }
  if (typeof parsed.deadLetterTargetArn !== 'string' || parsed.maxReceiveCount === undefined) {
    throw new SqsError('InvalidAttributeValue', 'Value for parameter RedrivePolicy is invalid. Reason: Redrive policy does not contain mandatory attribute: deadLetterTargetArn, maxReceiveCount.');
  }
  return { deadLetterTargetArn: parsed.deadLetterTargetArn, maxReceiveCount: integerIn('RedrivePolicy.maxReceiveCount', parsed.maxReceiveCount, 1, 1000) };
};

/** The queues of one stand-in; `now` is its clock (tests move it). */
export const sqsQueues = (opts: { baseUrl: () => string; region: string; now?: () => number; onDeadLetter?: (moved: DeadLettered) => void }) => {
  const now = opts.now ?? Date.now;
  const queues = new Map<string, Queue>();
  let sequence = 0n;
  /** Receipt handles ever given -> their message id (a stale handle is told apart from a made-up one). */
  const handles = new Map<string, string>();

  const arnOf = (name: string) => `arn:aws:sqs:${opts.region}:${ACCOUNT}:${name}`;

  const validateAttributes = (name: string, fifo: boolean, attributes: Record<string, string>) => {
    for (const key of Object.keys(attributes)) {
      if (!settable.has(key)) throw new SqsError('InvalidAttributeName', `Unknown Attribute ${key}.`);
    }
    if (attributes['VisibilityTimeout'] !== undefined) integerIn('VisibilityTimeout', attributes['VisibilityTimeout'], 0, MAX_VISIBILITY_TIMEOUT);
    if (attributes['DelaySeconds'] !== undefined) integerIn('DelaySeconds', attributes['DelaySeconds'], 0, 900);
    if (attributes['ReceiveMessageWaitTimeSeconds'] !== undefined) integerIn('ReceiveMessageWaitTimeSeconds', attributes['ReceiveMessageWaitTimeSeconds'], 0, 20);
    if (attributes['RedrivePolicy'] !== undefined) {
      const policy = parseRedrivePolicy(attributes['RedrivePolicy']);
      const target = [...queues.values()].find((q) => q.arn === policy.deadLetterTargetArn);
      if (!target) throw new SqsError('InvalidParameterValue', `Value ${attributes['RedrivePolicy']} for parameter RedrivePolicy is invalid. Reason: Dead-letter target does not exist.`);
      if (target.fifo !== fifo) throw new SqsError('InvalidParameterValue', `Value ${attributes['RedrivePolicy']} for parameter RedrivePolicy is invalid. Reason: Dead-letter queue must be same type of queue as the source.`);
    }
    if (fifo !== name.endsWith('.fifo')) {
      throw new SqsError('InvalidParameterValue', fifo ? 'The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix.' : 'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length');
    }
    if (!fifo && (attributes['ContentBasedDeduplication'] !== undefined || attributes['DeduplicationScope'] !== undefined)) {
      throw new SqsError('InvalidAttributeName', 'Unknown Attribute ContentBasedDeduplication.');
    }
  };

  const createQueue = (name: string, attributes: Record<string, string> = {}): Queue => {
    if (!/^[A-Za-z0-9_-]{1,75}(\.fifo)?$/.test(name) || name.length > 80) {
      throw new SqsError('InvalidParameterValue', 'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length');
    }
    const fifo = attributes['FifoQueue'] === 'true';
    if (attributes['FifoQueue'] !== undefined && attributes['FifoQueue'] !== 'true' && attributes['FifoQueue'] !== 'false') {
      throw new SqsError('InvalidAttributeValue', `Invalid value for the parameter FifoQueue.`);
    }
    validateAttributes(name, fifo, attributes);
    const wanted = { ...defaults, ...(fifo ? { ContentBasedDeduplication: 'false', DeduplicationScope: 'queue', FifoThroughputLimit: 'perQueue' } : {}), ...attributes };
    const existing = queues.get(name);
    if (existing) {
      for (const [key, value] of Object.entries(attributes)) {
        if (existing.attributes[key] !== value) throw new SqsError('QueueNameExists', `A queue already exists with the same name and a different value for attribute ${key}`, 'QueueAlreadyExists');
      }
      return existing;
    }
    const queue: Queue = {
      name,
      url: `${opts.baseUrl()}/${ACCOUNT}/${name}`,
      arn: arnOf(name),
      fifo,
      createdAt: now(),
      attributes: wanted,
      messages: [],
      deduplication: new Map(),
    };
    queues.set(name, queue);
    return queue;
  };

  /** A queue by its URL (any host: the SDK may rewrite it) or by name. */
  const queueOf = (queueUrl: unknown): Queue => {
    const name = typeof queueUrl === 'string' ? queueUrl.replace(/\/+$/, '').split('/').pop() ?? '' : '';
    const queue = queues.get(name);
    if (!queue) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.', 'AWS.SimpleQueueService.NonExistentQueue');
    return queue;
  };

  const redrivePolicy = (queue: Queue): RedrivePolicy | undefined =>
    queue.attributes['RedrivePolicy'] ? parseRedrivePolicy(queue.attributes['RedrivePolicy']) : undefined;

  const inFlight = (message: StoredMessage, at: number) => message.receiptHandle !== undefined && message.visibleAt > at;

  const send = (
    queue: Queue,
    input: { body: unknown; groupId?: unknown; deduplicationId?: unknown; delaySeconds?: unknown; attributes?: unknown },
  ): { messageId: string; md5OfBody: string; md5OfAttributes?: string; sequenceNumber?: string } => {
    if (typeof input.body !== 'string' || input.body.length === 0) throw new SqsError('MissingParameter', 'The request must contain the parameter MessageBody.');
    if (Buffer.byteLength(input.body) > Number(queue.attributes['MaximumMessageSize'])) {
      throw new SqsError('InvalidParameterValue', `One or more parameters are invalid. Reason: Message must be shorter than ${queue.attributes['MaximumMessageSize']} bytes.`);
    }
    // SQS's allowed characters: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF.
    if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(input.body)) {
      throw new SqsError('InvalidMessageContents', 'Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF');
    }
    const attributes = (input.attributes ?? {}) as Record<string, MessageAttributeValue>;
    const at = now();
    let delay = Number(queue.attributes['DelaySeconds']);
    if (input.delaySeconds !== undefined) {
      if (queue.fifo) throw new SqsError('InvalidParameterValue', 'Value for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.');
      delay = integerIn('DelaySeconds', input.delaySeconds, 0, 900);
    }
    const md5OfBody = md5(input.body);
    const md5Attrs = Object.keys(attributes).length > 0 ? md5OfAttributes(attributes) : undefined;
    if (!queue.fifo) {
      if (input.groupId !== undefined || input.deduplicationId !== undefined) {
        throw new SqsError('InvalidParameterValue', 'The request include parameter that is not valid for this queue type');
      }
      const messageId = randomUUID();
      queue.messages.push({ messageId, body: input.body, md5OfBody, attributes, sentAt: at, visibleAt: at + delay * 1000, receiveCount: 0 });
      return { messageId, md5OfBody, ...(md5Attrs ? { md5OfAttributes: md5Attrs } : {}) };
    }
    if (typeof input.groupId !== 'string' || input.groupId === '') throw new SqsError('MissingParameter', 'The request must contain the parameter MessageGroupId.');
    if (!/^[\x21-\x7e]{1,128}$/.test(input.groupId)) throw new SqsError('InvalidParameterValue', 'Value for parameter MessageGroupId is invalid.');
    let deduplicationId = input.deduplicationId;
    if (deduplicationId === undefined) {
      if (queue.attributes['ContentBasedDeduplication'] !== 'true') {
        throw new SqsError('InvalidParameterValue', 'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly');
      }
      deduplicationId = createHash('sha256').update(input.body).digest('hex');
    }
    if (typeof deduplicationId !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(deduplicationId)) {
      throw new SqsError('InvalidParameterValue', 'Value for parameter MessageDeduplicationId is invalid.');
    }
    for (const [id, seen] of queue.deduplication) if (seen.until <= at) queue.deduplication.delete(id);
    const seen = queue.deduplication.get(deduplicationId);
    // A duplicate within the window is accepted and dropped: the sender gets the first message's id back.
    if (seen) return { messageId: seen.messageId, md5OfBody, ...(md5Attrs ? { md5OfAttributes: md5Attrs } : {}), sequenceNumber: seen.sequenceNumber };
    const messageId = randomUUID();
    const sequenceNumber = String(++sequence * 1000n + 18_000_000_000_000_000_000n).padStart(20, '0');
    queue.deduplication.set(deduplicationId, { messageId, sequenceNumber, until: at + DEDUPLICATION_WINDOW_MS });
    queue.messages.push({
      messageId,
      body: input.body,
      md5OfBody,
      attributes,
      groupId: input.groupId,
      deduplicationId,
      sequenceNumber,
      sentAt: at,
      visibleAt: at + delay * 1000,
      receiveCount: 0,
    });
    return { messageId, md5OfBody, ...(md5Attrs ? { md5OfAttributes: md5Attrs } : {}), sequenceNumber };
  };

  /** Moves a message that was received maxReceiveCount times to its queue's dead-letter queue (as SQS does on the next receive). */
  const deadLetter = (queue: Queue, message: StoredMessage, policy: RedrivePolicy) => {
    const target = [...queues.values()].find((q) => q.arn === policy.deadLetterTargetArn);
    queue.messages = queue.messages.filter((m) => m !== message);
    if (!target) return;
    // The message keeps its id, body, attributes and receive count; it is visible in the dead-letter queue at once.
    const moved: StoredMessage = { ...message, visibleAt: now() };
    delete moved.receiptHandle;
    target.messages.push(moved);
    opts.onDeadLetter?.({ from: queue, to: target, message: moved });
  };

  /** What one ReceiveMessage call takes right now: up to `max` messages, or none. */
  const receiveNow = (queue: Queue, max: number, visibilitySeconds: number): StoredMessage[] => {
    const at = now();
    const policy = redrivePolicy(queue);
    const taken: StoredMessage[] = [];
    const blocked = new Set<string>();
    for (const message of [...queue.messages]) {
      if (taken.length >= max) break;
      if (queue.fifo) {
        const group = message.groupId!;
        if (blocked.has(group)) continue;
        // A group goes on only in order: a message in flight or not yet visible holds back the rest of its group.
        if (message.visibleAt > at) {
          blocked.add(group);
          continue;
        }
      } else if (message.visibleAt > at) continue;
      if (policy && message.receiveCount >= policy.maxReceiveCount) {
        deadLetter(queue, message, policy);
        continue;
      }
      message.receiveCount += 1;
      message.firstReceiveAt ??= at;
      message.visibleAt = at + visibilitySeconds * 1000;
      message.receiptHandle = Buffer.from(`${queue.name} ${message.messageId} ${message.receiveCount} ${randomUUID()}`).toString('base64');
      handles.set(message.receiptHandle, message.messageId);
      taken.push(message);
    }
    return taken;
  };

  const messageOfHandle = (queue: Queue, receiptHandle: unknown): StoredMessage | 'gone' => {
    const messageId = typeof receiptHandle === 'string' ? handles.get(receiptHandle) : undefined;
    if (!messageId) throw new SqsError('ReceiptHandleIsInvalid', `The input receipt handle "${String(receiptHandle)}" is not a valid receipt handle.`);
    return queue.messages.find((m) => m.messageId === messageId) ?? 'gone';
  };

  const deleteMessage = (queue: Queue, receiptHandle: unknown) => {
    const message = messageOfHandle(queue, receiptHandle);
    if (message === 'gone') return;
    if (message.receiptHandle !== receiptHandle) {
      // Received again since: a FIFO queue refuses the old handle; a standard queue deletes the message anyway.
      if (queue.fifo) throw new SqsError('ReceiptHandleIsInvalid', 'The receipt handle has expired.');
    }
    queue.messages = queue.messages.filter((m) => m !== message);
  };

  const changeVisibility = (queue: Queue, receiptHandle: unknown, timeout: unknown) => {
    const seconds = integerIn('VisibilityTimeout', timeout, 0, MAX_VISIBILITY_TIMEOUT);
    const message = messageOfHandle(queue, receiptHandle);
    const at = now();
    if (message === 'gone' || message.receiptHandle !== receiptHandle || !inFlight(message, at)) {
      throw new SqsError('MessageNotInflight', 'Message does not exist or is not available for visibility timeout change.', 'AWS.SimpleQueueService.MessageNotInflight');
    }
    message.visibleAt = at + seconds * 1000;
  };

  const counts = (queue: Queue) => {
    const at = now();
    let visible = 0;
    let notVisible = 0;
    let delayed = 0;
    for (const m of queue.messages) {
      if (inFlight(m, at)) notVisible++;
      else if (m.visibleAt > at) delayed++;
      else visible++;
    }
    return { visible, notVisible, delayed };
  };

  const attributesOf = (queue: Queue): Record<string, string> => {
    const { visible, notVisible, delayed } = counts(queue);
    return {
      QueueArn: queue.arn,
      ApproximateNumberOfMessages: String(visible),
      ApproximateNumberOfMessagesNotVisible: String(notVisible),
      ApproximateNumberOfMessagesDelayed: String(delayed),
      CreatedTimestamp: String(Math.floor(queue.createdAt / 1000)),
      LastModifiedTimestamp: String(Math.floor(queue.createdAt / 1000)),
      ...queue.attributes,
    };
  };

  /** When the next message of a queue becomes visible (undefined: none waiting). */
  const nextVisibleAt = (queue: Queue): number | undefined => {
    let next: number | undefined;
    for (const m of queue.messages) if (next === undefined || m.visibleAt < next) next = m.visibleAt;
    return next;
  };

  return {
    queues,
    createQueue,
    queueOf,
    send,
    receiveNow,
    deleteMessage,
    changeVisibility,
    attributesOf,
    nextVisibleAt,
    /** SetQueueAttributes: validated as at creation (FifoQueue cannot change), then applied. */
    setAttributes: (queue: Queue, attributes: Record<string, string>) => {
      if ('FifoQueue' in attributes) throw new SqsError('InvalidAttributeName', 'Unknown Attribute FifoQueue.');
      validateAttributes(queue.name, queue.fifo, attributes);
      Object.assign(queue.attributes, attributes);
    },
    purge: (queue: Queue) => {
      queue.messages = [];
    },
    deleteQueue: (queue: Queue) => {
      queues.delete(queue.name);
    },
  };
};

export type SqsQueues = ReturnType<typeof sqsQueues>;

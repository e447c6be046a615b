import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { JOB_QUEUE_MAX_RECEIVE_COUNT, jobQueueName, jobSlicesDeadLetterQueueName } from '../../constructs/job-queue-names.ts';
import { type Handler, lambdaContext, lambdaError, loadHandler } from '../handlers.ts';
import type { QueuedJob } from './job-queues.ts';

/** What one delivery of a slice came to (tests and the log read it). */
export interface Delivery {
  readonly job: string;
  readonly messageId: string;
  readonly receiveCount: number;
  readonly outcome: 'deleted' | 'failed' | 'threw' | 'timed-out';
  readonly error?: string;
}

export interface JobEventSourceOptions {
  /** The SQS endpoint (the stand-in's URL). */
  readonly endpoint: string;
  readonly region: string;
  readonly jobs: readonly QueuedJob[];
  /**
   * A slice's visibility timeout, in seconds (default: its job's timeout + 5 s, so a failed or timed-out slice comes
   * back soon; the cloud uses 6x the timeout).
   */
  readonly visibilityTimeoutSeconds?: (job: QueuedJob) => number;
  /**
   * Pollers per queue (default 1): Lambda runs a FIFO queue's message groups (a run's lanes) in parallel; locally one
   * at a time unless asked, and never more than the job's `maxConcurrency` (its queue's limit in the cloud). The queue
   * never hands out two slices of one lane at once, whatever the number.
   */
  readonly concurrency?: number;
  /** Receives before the dead-letter queue (default 3, as in the cloud). */
  readonly maxReceiveCount?: number;
  /** The name of the stack the dead-letter queue is named after (default 'CoursePlatformJobs'). */
  readonly stackName?: string;
  readonly log: (line: string) => void;
  /** How a handler module is loaded (tests hand their own). */
  readonly load?: (module: string) => Promise<Handler>;
  readonly onDelivery?: (delivery: Delivery) => void;
}

export interface JobEventSource {
  /** Job name -> its queue's URL: the functions' JOB_QUEUE_URLS. */
  readonly queueUrls: Readonly<Record<string, string>>;
  readonly deadLetterQueueUrl: string;
  /** Messages waiting or in flight on a queue (ApproximateNumberOfMessages + NotVisible). */
  pending(queueUrl: string): Promise<number>;
  /** Stops receiving and waits for the slices in hand (a timed-out one still running: a moment only). */
  stop(): Promise<void>;
}

const queueArn = (region: string, name: string) => `arn:aws:sqs:${region}:000000000000:${name}`;

/** An SQS message as Lambda's SQS event source hands it to a function (one record of an SQSEvent). */
export const sqsRecord = (
  message: { messageId: string; receiptHandle: string; body: string; md5OfBody: string; attributes: Readonly<Record<string, string | undefined>> },
  eventSourceARN: string,
  awsRegion: string,
): SQSRecord => {
  const a = message.attributes;
  return {
    messageId: message.messageId,
    receiptHandle: message.receiptHandle,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: a['ApproximateReceiveCount'] ?? '1',
      SentTimestamp: a['SentTimestamp'] ?? String(Date.now()),
      SenderId: a['SenderId'] ?? '',
      ApproximateFirstReceiveTimestamp: a['ApproximateFirstReceiveTimestamp'] ?? String(Date.now()),
      ...(a['SequenceNumber'] ? { SequenceNumber: a['SequenceNumber'] } : {}),
      ...(a['MessageGroupId'] ? { MessageGroupId: a['MessageGroupId'] } : {}),
      ...(a['MessageDeduplicationId'] ? { MessageDeduplicationId: a['MessageDeduplicationId'] } : {}),
    },
    messageAttributes: {},
    md5OfBody: message.md5OfBody,
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion,
  };
};

const fromSdk = (message: Message) => ({
  messageId: message.MessageId!,
  receiptHandle: message.ReceiptHandle!,
  body: message.Body ?? '',
  md5OfBody: message.MD5OfBody ?? '',
  attributes: (message.Attributes ?? {}) as Record<string, string>,
});

/** How long stopping waits for the handlers that timed out and still run (they cannot be killed in-process). */
const STOP_GRACE_MS = 2_000;

class TimedOut extends Error {
  constructor(job: string, ms: number) {
    super(`Task timed out after ${(ms / 1000).toFixed(2)} seconds (${job})`);
    this.name = 'TimedOut';
  }
}

/**
 * Lambda's SQS event source for the sliced jobs (docs/decisions/0032-jobs-in-slices.md), against the local SQS
 * stand-in: it creates each job's FIFO queue (`jobQueueName`) with a redrive policy to one FIFO dead-letter queue, and
 * runs a poller per queue that receives one message at a time (batch size 1), invokes the job's handler with an
 * SQSEvent record as Lambda builds it and a context with the job's timeout, and deletes the message when the handler
 * answered without reporting it in `batchItemFailures`. A reported, thrown or timed-out slice is left to come back
 * after its visibility timeout; after `maxReceiveCount` receives the stand-in moves it to the dead-letter queue (the
 * local cloud logs it and keeps it as a dead letter). A timed-out handler cannot be killed in-process: it is left to
 * finish in the background while its message is treated as failed, as Lambda would have ended it.
 */
export const startJobEventSource = async (opts: JobEventSourceOptions): Promise<JobEventSource> => {
  const client = new SQSClient({ region: opts.region, endpoint: opts.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const load = opts.load ?? loadHandler;
  const maxReceiveCount = opts.maxReceiveCount ?? JOB_QUEUE_MAX_RECEIVE_COUNT;
  const visibility = opts.visibilityTimeoutSeconds ?? ((job: QueuedJob) => Math.ceil(job.timeoutMs / 1000) + 5);
  const dlqName = jobSlicesDeadLetterQueueName(opts.stackName ?? 'CoursePlatformJobs');
  const { QueueUrl: deadLetterQueueUrl } = await client.send(new CreateQueueCommand({ QueueName: dlqName, Attributes: { FifoQueue: 'true' } }));
  const queueUrls: Record<string, string> = {};
  for (const job of opts.jobs) {
    const { QueueUrl } = await client.send(
      new CreateQueueCommand({
        QueueName: jobQueueName(job.name),
        Attributes: {
          FifoQueue: 'true',
          VisibilityTimeout: String(visibility(job)),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: queueArn(opts.region, dlqName), maxReceiveCount }),
        },
      }),
    );
    queueUrls[job.name] = QueueUrl!;
  }

  let stopping = false;
  const abort = new AbortController();
  const background = new Set<Promise<unknown>>();

  const deliver = async (job: QueuedJob, message: Message): Promise<void> => {
    const record = sqsRecord(fromSdk(message), queueArn(opts.region, jobQueueName(job.name)), opts.region);
    const event: SQSEvent = { Records: [record] };
    const receiveCount = Number(record.attributes.ApproximateReceiveCount);
    const report = (outcome: Delivery['outcome'], error?: string) => {
      opts.onDelivery?.({ job: job.name, messageId: record.messageId, receiveCount, outcome, ...(error ? { error } : {}) });
      if (outcome !== 'deleted') {
        const last = receiveCount >= maxReceiveCount;
        opts.log(
          `[sqs] ${job.name} slice ${record.messageId} ${outcome} (receive ${receiveCount} of ${maxReceiveCount})${error ? `: ${error}` : ''}; ${last ? 'to the dead-letter queue at its next receive' : 'delivered again after its visibility timeout'}`,
        );
      }
    };
    let timer: NodeJS.Timeout | undefined;
    const run = (async () => (await load(job.handler))(event, lambdaContext(job.name, job.timeoutMs)))();
    background.add(run);
    void run.catch(() => undefined).finally(() => background.delete(run));
    try {
      const answer = (await Promise.race([
        run,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new TimedOut(job.name, job.timeoutMs)), job.timeoutMs);
        }),
      ])) as Partial<SQSBatchResponse> | undefined;
      const failures = answer?.batchItemFailures ?? [];
      if (failures.some((f) => f.itemIdentifier === record.messageId)) return report('failed');
      await client.send(new DeleteMessageCommand({ QueueUrl: queueUrls[job.name], ReceiptHandle: record.receiptHandle }));
      report('deleted');
    } catch (error) {
      report(error instanceof TimedOut ? 'timed-out' : 'threw', lambdaError(error).errorMessage);
    } finally {
      clearTimeout(timer);
    }
  };

  const poll = async (job: QueuedJob) => {
    while (!stopping) {
      let messages: Message[];
      try {
        const answer = await client.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrls[job.name], MaxNumberOfMessages: 1, WaitTimeSeconds: 2, MessageSystemAttributeNames: ['All'] }),
          { abortSignal: abort.signal },
        );
        messages = answer.Messages ?? [];
      } catch (error) {
        if (stopping) break;
        opts.log(`[sqs] ${job.name}: receive failed: ${(error as Error).message}`);
        await sleep(1_000);
        continue;
      }
      for (const message of messages) await deliver(job, message);
    }
  };
  /** Pollers of a job's queue: as asked, within its queue's maximum concurrency (each poller runs one slice at a time). */
  const pollersOf = (job: QueuedJob) => Math.max(1, Math.min(opts.concurrency ?? 1, job.maxConcurrency ?? Infinity));
  const pollers = opts.jobs.flatMap((job) => Array.from({ length: pollersOf(job) }, () => poll(job)));

  return {
    queueUrls,
    deadLetterQueueUrl: deadLetterQueueUrl!,
    pending: async (QueueUrl) => {
      const { Attributes = {} } = await client.send(
        new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
      );
      return Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
    },
    stop: async () => {
      stopping = true;
      abort.abort();
      // A delivery ends within its job's timeout; a timed-out handler still running is given a moment more, not forever.
      await Promise.all(pollers);
      await Promise.race([Promise.allSettled([...background]), sleep(STOP_GRACE_MS)]);
      client.destroy();
    },
  };
};

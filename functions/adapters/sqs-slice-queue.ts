import { createHash } from 'node:crypto';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { awsClientOptions, clientPolicies } from '#adapters/client-policy.ts';
import { traced } from '#adapters/tracer.ts';
import { sliceIdentity } from '#core/jobs/slices.ts';
import type { Slice, SliceQueue } from '#core/jobs/ports.ts';
import { config, required } from '#functions/config.ts';

let client: SQSClient | undefined;
let queueUrls: Record<string, string> | undefined;

const sqsClient = (): SQSClient => {
  if (!client) {
    const { AWS_REGION, SQS_ENDPOINT } = config();
    client = traced(new SQSClient({ region: AWS_REGION, ...awsClientOptions(clientPolicies.sqs), ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {}) }));
  }
  return client;
};

/** The queue URL of a job, from JOB_QUEUE_URLS; a job this function was not given is a configuration error. */
export const jobQueueUrl = (job: string): string => {
  queueUrls ??= JSON.parse(required('JOB_QUEUE_URLS')) as Record<string, string>;
  const url = queueUrls[job];
  if (!url) throw new Error(`JOB_QUEUE_URLS has no queue for the job '${job}': give the function the capability 'queue:${job}'.`);
  return url;
};

/** Tests change the environment between runs: the queue URLs and the endpoint are read again at the next send. */
export const resetJobQueues = (): void => {
  queueUrls = undefined;
  client?.destroy();
  client = undefined;
};

/** A deduplication id SQS accepts (at most 128 characters): the slice's identity, hashed. */
const deduplicationId = (slice: Slice): string => createHash('sha256').update(sliceIdentity(slice)).digest('hex');

/** A message group per lane of a run: lanes run in parallel, a lane's slices one after the other. */
const groupId = (slice: Slice): string => createHash('sha256').update(`${slice.run}/${slice.lane}`).digest('hex');

/**
 * The job engine's queue (decision 0032): each job has its own FIFO queue; a slice is one message, its lane the
 * message group, its identity the deduplication id. A batch entry SQS refuses is an error: the slice that sent it
 * fails and is delivered again.
 */
export const sqsSliceQueue = (): SliceQueue => ({
  async send(slices) {
    for (let i = 0; i < slices.length; i += 10) {
      const batch = slices.slice(i, i + 10);
      const byQueue = new Map<string, Slice[]>();
      for (const slice of batch) byQueue.set(jobQueueUrl(slice.job), [...(byQueue.get(jobQueueUrl(slice.job)) ?? []), slice]);
      for (const [QueueUrl, entries] of byQueue) {
        const answer = await sqsClient().send(
          new SendMessageBatchCommand({
            QueueUrl,
            Entries: entries.map((slice, n) => ({
              Id: String(n),
              MessageBody: JSON.stringify(slice),
              MessageGroupId: groupId(slice),
              MessageDeduplicationId: deduplicationId(slice),
            })),
          }),
        );
        if (answer.Failed?.length) throw new Error(`SQS refused ${answer.Failed.length} slice(s): ${answer.Failed.map((f) => `${f.Code}: ${f.Message ?? ''}`).join('; ')}`);
      }
    }
  },
});

import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { awsClientOptions, clientPolicies } from '#adapters/client-policy.ts';
import { traced } from '#adapters/tracer.ts';
import { config, required } from '#functions/config.ts';
import type { JobStarter } from '#core/campaigns/ports.ts';
import { describeError } from '#middleware/logger.ts';

let client: LambdaClient | undefined;

/**
 * The Lambda client, made once. One attempt (adapters/client-policy.ts): a job that cannot be started now runs on its
 * schedule anyway, so the caller should not wait on retries.
 */
export const lambdaClient = (): LambdaClient => {
  if (!client) {
    const { AWS_REGION, LAMBDA_ENDPOINT } = config();
    client = traced(new LambdaClient({ region: AWS_REGION, ...awsClientOptions(clientPolicies.lambda), ...(LAMBDA_ENDPOINT ? { endpoint: LAMBDA_ENDPOINT } : {}) }));
  }
  return client;
};

/**
 * The campaign sender job, started by an asynchronous Lambda invoke (InvocationType Event: Lambda queues the event and
 * answers 202 at once). Locally the trigger bridge takes the same call. `report` gets the outcome for the request's one
 * log line (with the cause of a failure); a failure is then passed on, and the caller carries on, since the job's
 * schedule sends the campaign within the minute anyway.
 */
export const campaignSenderStarter = (report: (fields: Record<string, unknown>) => void = () => undefined): JobStarter => ({
  async start() {
    const functionName = required('CAMPAIGN_SENDER_FUNCTION');
    try {
      await lambdaClient().send(
        new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: new TextEncoder().encode(JSON.stringify({ source: 'campaign-queued' })) }),
      );
      report({ senderStart: 'started' });
    } catch (error) {
      report({ senderStart: 'failed', senderStartError: describeError(error) });
      throw error;
    }
  },
});

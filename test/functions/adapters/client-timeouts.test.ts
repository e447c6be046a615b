import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPolicies, worstCaseMs } from '#adapters/client-policy.ts';
import { resetJobQueues } from '#adapters/sqs-slice-queue.ts';
import { campaignSenderStarter } from '#functions/composition/deps-campaigns.ts';
import { forgetSecrets, secretValue } from '#adapters/secrets.ts';
import { documentClient, resetDocumentClient, tableName } from '#data/table.ts';
import { resetConfig } from '#functions/config.ts';

/**
 * The policies in action: each client is pointed at a local server that takes the request and never answers, and
 * must give up on its own, after exactly its attempts, within its stated worst case.
 */
interface Silent {
  server: Server;
  url: string;
  port: number;
  requests: number;
}

const silentServer = async (): Promise<Silent> => {
  const silent = { requests: 0 } as Silent;
  silent.server = createServer(() => {
    silent.requests += 1; // ...and no answer, ever.
  });
  await new Promise<void>((resolve) => silent.server.listen(0, resolve));
  silent.port = (silent.server.address() as AddressInfo).port;
  silent.url = `http://127.0.0.1:${silent.port}`;
  return silent;
};

let dynamodb: Silent;
let sqs: Silent;
let extension: Silent;
const env: Record<string, string> = {};

beforeAll(async () => {
  [dynamodb, sqs, extension] = await Promise.all([silentServer(), silentServer(), silentServer()]);
  Object.assign(
    env,
    {
      DYNAMODB_ENDPOINT: dynamodb.url,
      SQS_ENDPOINT: sqs.url,
      JOB_QUEUE_URLS: JSON.stringify({ 'campaign-sender': `${sqs.url}/000000000000/campaign-sender.fifo` }),
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(extension.port),
      AWS_SESSION_TOKEN: 'unit-session',
    },
    // The SDK signs before it sends: any credentials do for a server that never reads them.
    process.env['AWS_ACCESS_KEY_ID'] ? {} : { AWS_ACCESS_KEY_ID: 'unit', AWS_SECRET_ACCESS_KEY: 'unit' },
  );
  Object.assign(process.env, env);
  resetConfig();
  resetJobQueues();
  resetDocumentClient();
  forgetSecrets();
});

afterAll(async () => {
  for (const key of Object.keys(env)) delete process.env[key];
  resetConfig();
  resetDocumentClient();
  forgetSecrets();
  for (const silent of [dynamodb, sqs, extension]) {
    silent.server.closeAllConnections();
    await new Promise((resolve) => silent.server.close(resolve));
  }
});

/** How long `call` took to fail, and what it failed with. */
const failure = async (call: () => Promise<unknown>): Promise<{ ms: number; error: { name?: string; $metadata?: { attempts?: number } } }> => {
  const started = performance.now();
  try {
    await call();
  } catch (error) {
    return { ms: performance.now() - started, error: error as { name?: string } };
  }
  throw new Error('the call succeeded against a server that never answers');
};

/** Slack for a loaded machine: timers fire late, never early. */
const LATE_MS = 2_000;

describe.concurrent('a client whose dependency never answers gives up within its policy', () => {
  it('DynamoDB: two attempts of 3 s, then a TimeoutError', async () => {
    const policy = clientPolicies.dynamodb;
    const { ms, error } = await failure(() => documentClient().send(new GetCommand({ TableName: tableName(), Key: { pk: 'A', sk: 'B' } })));
    expect(error.name).toBe('TimeoutError');
    expect(error.$metadata?.attempts).toBe(policy.maxAttempts);
    expect(dynamodb.requests).toBe(policy.maxAttempts);
    expect(ms).toBeGreaterThanOrEqual(policy.maxAttempts * policy.requestTimeoutMs - 50);
    expect(ms).toBeLessThan(worstCaseMs(policy) + LATE_MS);
  });

  it("SQS (a queued campaign's run started): two attempts of 3 s", async () => {
    const policy = clientPolicies.sqs;
    const { ms, error } = await failure(() => campaignSenderStarter().start('c1'));
    expect(error.name).toBe('TimeoutError');
    expect(sqs.requests).toBe(policy.maxAttempts);
    expect(ms).toBeGreaterThanOrEqual(policy.maxAttempts * policy.requestTimeoutMs - 50);
    expect(ms).toBeLessThan(worstCaseMs(policy) + LATE_MS);
  });

  it('the secrets extension: one read of 3 s', async () => {
    const policy = clientPolicies.secretsExtension;
    const { ms, error } = await failure(() => secretValue('course-platform/stripe-api-key'));
    expect(error.name).toBe('TimeoutError');
    expect(extension.requests).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(policy.requestTimeoutMs - 50);
    expect(ms).toBeLessThan(worstCaseMs(policy) + LATE_MS);
  });
});

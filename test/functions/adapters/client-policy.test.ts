import { MAXIMUM_RETRY_DELAY, Retry } from '@smithy/core/retry';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedrockClient } from '#adapters/bedrock-text-model.ts';
import {
  ANSWER_MARGIN_MS,
  AWS_MAX_BACKOFF_MS,
  AWS_THROTTLING_BACKOFF_BASE_MS,
  type ClientPolicy,
  type Dependency,
  STRIPE_INITIAL_RETRY_DELAY_MS,
  STRIPE_MAX_RETRY_DELAY_MS,
  clientPolicies,
  dynamodbPolicyOf,
  worstCaseMs,
} from '#adapters/client-policy.ts';
import { cognitoClient } from '#adapters/cognito-directory.ts';
import { kmsClient } from '#adapters/envelope-cipher.ts';
import { s3Client } from '#adapters/s3-file-store.ts';
import { sesBulkClient, sesClient } from '#adapters/ses-mailer.ts';
import { stripeClient } from '#adapters/stripe-payments.ts';
import { documentClient, resetDocumentClient } from '#data/table.ts';
import { resetConfig } from '#functions/config.ts';
import { type FunctionProfile, functionTimeoutMs } from '#functions/function-timeouts.ts';
import { type Capability, jobs, routes } from '#functions/routes.ts';

/** What the SDK's environment variables would say: the policy's explicit values must win over both. */
const sdkEnvironment = { AWS_MAX_ATTEMPTS: '9', AWS_RETRY_MODE: 'adaptive' };

beforeAll(() => {
  Object.assign(process.env, sdkEnvironment);
  resetConfig();
  resetDocumentClient();
});
afterAll(() => {
  for (const key of Object.keys(sdkEnvironment)) delete process.env[key];
  resetConfig();
  resetDocumentClient();
});

type HandlerOptions = NonNullable<Exclude<ConstructorParameters<typeof NodeHttpHandler>[0], () => unknown>>;
interface ResolvedAwsConfig {
  requestHandler: unknown;
  maxAttempts: () => Promise<number>;
  retryMode: unknown;
  retryStrategy: () => Promise<{ mode?: string }>;
}

/** What an AWS SDK v3 client will really do: its request handler's resolved options and its retry settings. */
const settingsOf = async (client: { config: object }) => {
  const config = client.config as ResolvedAwsConfig;
  expect(config.requestHandler).toBeInstanceOf(NodeHttpHandler);
  // smithy resolves the handler's options lazily, into a private field: read what it resolved.
  const handler = (await (config.requestHandler as unknown as { configProvider: Promise<HandlerOptions> }).configProvider) as HandlerOptions;
  return {
    connectionTimeout: handler.connectionTimeout,
    requestTimeout: handler.requestTimeout,
    socketTimeout: handler.socketTimeout,
    throwOnRequestTimeout: handler.throwOnRequestTimeout,
    maxAttempts: await config.maxAttempts(),
    retryMode: config.retryMode,
    strategy: (await config.retryStrategy()).mode,
  };
};

const expectedOf = (policy: ClientPolicy) => ({
  connectionTimeout: policy.connectionTimeoutMs,
  requestTimeout: policy.requestTimeoutMs,
  socketTimeout: policy.requestTimeoutMs,
  throwOnRequestTimeout: true,
  maxAttempts: policy.maxAttempts,
  retryMode: 'standard',
  strategy: 'standard',
});

describe('every client is built from its policy', () => {
  const awsClients: [Dependency, () => { config: object }][] = [
    ['dynamodb', documentClient],
    ['cognito', cognitoClient],
    ['ses', sesClient],
    ['sesBulk', sesBulkClient],
    ['kms', kmsClient],
    ['s3', s3Client],
    ['bedrock', bedrockClient],
  ];

  it.each(awsClients)('the %s client has its timeouts, attempts and standard retries, whatever AWS_MAX_ATTEMPTS and AWS_RETRY_MODE say', async (dependency, client) => {
    expect(await settingsOf(client())).toEqual(expectedOf(clientPolicies[dependency]));
  });

  it('a heavy function (FUNCTION_PROFILE=heavy: jobs, webhooks) gets the DynamoDB policy with more attempts', async () => {
    process.env['FUNCTION_PROFILE'] = 'heavy';
    resetConfig();
    resetDocumentClient();
    try {
      expect(await settingsOf(documentClient())).toEqual(expectedOf(clientPolicies.dynamodbHeavy));
      expect(clientPolicies.dynamodbHeavy.maxAttempts).toBeGreaterThan(clientPolicies.dynamodb.maxAttempts);
    } finally {
      delete process.env['FUNCTION_PROFILE'];
      resetConfig();
      resetDocumentClient();
    }
  });

  it('the Stripe client has its timeout and one network retry', () => {
    const stripe = stripeClient('sk_test_policy');
    expect(stripe.getApiField('timeout')).toBe(clientPolicies.stripe.requestTimeoutMs);
    expect(stripe.getMaxNetworkRetries()).toBe(clientPolicies.stripe.maxAttempts - 1);
  });

  it('the backoff ceilings the worst cases count are the installed SDKs’ own', () => {
    expect(Retry.throttlingDelay()).toBe(AWS_THROTTLING_BACKOFF_BASE_MS);
    // A throttling error waits longest: other errors start from a smaller base.
    expect(Retry.delay()).toBeLessThan(AWS_THROTTLING_BACKOFF_BASE_MS);
    expect(MAXIMUM_RETRY_DELAY).toBe(AWS_MAX_BACKOFF_MS);
    const stripe = stripeClient('sk_test_policy');
    expect(Number(stripe.getConstant('INITIAL_NETWORK_RETRY_DELAY_SEC')) * 1000).toBe(STRIPE_INITIAL_RETRY_DELAY_MS);
    expect(Number(stripe.getConstant('MAX_NETWORK_RETRY_DELAY_SEC')) * 1000).toBe(STRIPE_MAX_RETRY_DELAY_MS);
  });
});

describe('worst cases', () => {
  it('count every attempt to its timeout and every backoff at its ceiling, capped by a deadline', () => {
    expect(worstCaseMs({ requestTimeoutMs: 3_000, maxAttempts: 3, retry: 'aws-standard' })).toBe(3 * 3_000 + 1_000 + 2_000);
    expect(worstCaseMs({ requestTimeoutMs: 3_000, maxAttempts: 1, retry: 'aws-standard' })).toBe(3_000);
    expect(worstCaseMs({ requestTimeoutMs: 25_000, maxAttempts: 2, retry: 'aws-standard', callDeadlineMs: 26_000 })).toBe(26_000);
    expect(worstCaseMs({ requestTimeoutMs: 8_000, maxAttempts: 3, retry: 'stripe' })).toBe(3 * 8_000 + 500 + 500);
    // Stripe retries a closed connection once even with no retries configured.
    expect(worstCaseMs({ requestTimeoutMs: 8_000, maxAttempts: 1, retry: 'stripe' })).toBe(2 * 8_000 + 500);
    expect(worstCaseMs({ requestTimeoutMs: 3_000, maxAttempts: 1, retry: 'none' })).toBe(3_000);
  });

  it('are the ones decision 0023 tabulates', () => {
    const table = Object.fromEntries(Object.entries(clientPolicies).map(([name, policy]) => [name, worstCaseMs(policy)]));
    expect(table).toEqual({
      dynamodb: 7_000,
      dynamodbHeavy: 19_000,
      cognito: 7_000,
      ses: 7_000,
      sesBulk: 5_000,
      kms: 5_000,
      s3: 7_000,
      sqs: 7_000,
      bedrock: 26_000,
      stripe: 16_500,
      meetings: 20_000,
      google: 10_000,
      edge: 5_000,
      secretsExtension: 3_000,
    });
  });
});

/** The clients each capability brings (a new capability does not compile until it is classified here). */
const clientsOf: Record<Capability, readonly Dependency[]> = {
  'directory:add-to-group': ['cognito'],
  'directory:admin': ['cognito'],
  'directory:read': ['cognito'],
  mail: ['ses', 'sesBulk'],
  'text-model': ['bedrock'],
  payments: ['stripe', 'secretsExtension'],
  // The webhooks only verify signatures: the signing secret, no API call.
  'payments-webhook': ['secretsExtension'],
  'payments-connect-webhook': ['secretsExtension'],
  // The token endpoint and Calendar, and the platform's OAuth client secret.
  'google-calendar': ['google', 'secretsExtension'],
  secrets: ['kms'],
  'certificate-signing': ['kms'],
  'app-links': [],
  files: ['s3'],
  'files:read': ['s3'],
  'files:erase-submissions': ['s3'],
  avatars: ['s3'],
  'avatars:read': ['s3'],
  'job-queues': ['sqs'],
  exports: ['s3'],
  meetings: ['meetings'],
  // DNS and CloudFront's distribution tenants (decision 0055).
  'custom-domains': ['edge'],
};

interface Deployed {
  name: string;
  profile: FunctionProfile;
  clients: Dependency[];
}
/** A function's clients: the table's through the DynamoDB policy of its profile (FUNCTION_PROFILE), and its capabilities'. */
const clientsFor = (profile: FunctionProfile, table: boolean, uses: readonly Capability[] = []): Dependency[] => [
  ...new Set<Dependency>([...(table ? [dynamodbPolicyOf(profile)] : []), ...uses.flatMap((capability) => clientsOf[capability])]),
];
const deployed: Deployed[] = [
  ...routes.map((route) => ({
    name: route.name,
    profile: route.profile ?? 'crud',
    clients: clientsFor(route.profile ?? 'crud', route.table !== 'none', [...(route.uses ?? []), ...(route.queues?.length ? (['job-queues'] as const) : [])]),
  })),
  // A sliced job (`queue: true`) sends its continuations to its own queue: capability 'job-queues' (decision 0032).
  ...(jobs as readonly { name: string; uses?: readonly Capability[]; profile?: FunctionProfile; queue?: boolean }[]).map((job) => ({
    name: job.name,
    profile: job.profile ?? 'crud',
    clients: clientsFor(job.profile ?? 'crud', true, [...(job.uses ?? []), ...(job.queue ? (['job-queues'] as const) : [])]),
  })),
  // lib/constructs/user-directory.ts and lib/stacks/api-stack.ts: the Cognito trigger and the SES feedback handler that
  // reach a client, both 'crud'.
  { name: 'post-confirmation', profile: 'crud', clients: clientsFor('crud', true, ['directory:add-to-group']) },
  { name: 'ses-feedback', profile: 'crud', clients: clientsFor('crud', true) },
];

describe('every client gives up in time for every function that uses it to answer', () => {
  it.each(Object.keys(clientPolicies) as Dependency[])('%s', (dependency) => {
    const users = deployed.filter((fn) => fn.clients.includes(dependency));
    expect(users.length, `no function uses ${dependency}: drop its policy`).toBeGreaterThan(0);
    const late = users
      .filter((fn) => worstCaseMs(clientPolicies[dependency]) + ANSWER_MARGIN_MS > functionTimeoutMs[fn.profile])
      .map((fn) => `${fn.name} (${fn.profile}, ${functionTimeoutMs[fn.profile]} ms)`);
    expect(late).toEqual([]);
  });
});

import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import type { Role } from '#contracts/common.ts';
import type { PlanType } from '#contracts/plans.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { counterDeltas } from '#core/billing/subscription-state.ts';
import type { StoredSubscription } from '#core/ports.ts';
import { dynamoBilling } from '#data/billing.ts';
import { resetJobQueues } from '#adapters/sqs-slice-queue.ts';
import { resetConfig } from '#functions/config.ts';
import { resetDocumentClient } from '#data/table.ts';
import { userKeys } from '#data/users.ts';
import { getDeps } from '#functions/composition/deps.ts';

/** Clients of the running local cloud, as an outside client would hold them: the official SDKs and fetch. */
export const outputs = () => inject('outputs');

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export const cognito = () =>
  new CognitoIdentityProviderClient({ region: outputs().Region, endpoint: outputs().CognitoEndpoint, credentials });

export const dynamo = () =>
  DynamoDBDocumentClient.from(new DynamoDBClient({ region: outputs().Region, endpoint: outputs().DynamoDbEndpoint, credentials }));

let counter = 0;
export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;

export const signUp = (email: string, password: string, clientMetadata?: Record<string, string>) =>
  cognito().send(
    new SignUpCommand({
      ClientId: outputs().UserPoolClientId,
      Username: email,
      Password: password,
      UserAttributes: [{ Name: 'email', Value: email }],
      ...(clientMetadata ? { ClientMetadata: clientMetadata } : {}),
    }),
  );

export const signIn = async (email: string, password: string): Promise<string> => {
  const res = await cognito().send(
    new InitiateAuthCommand({
      ClientId: outputs().UserPoolClientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const token = res.AuthenticationResult?.AccessToken;
  if (!token) throw new Error(`no access token for ${email} (challenge ${res.ChallengeName ?? 'none'})`);
  return token;
};

export const api = async (
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string>; /** Another gateway than the cloud's. */ apiUrl?: string } = {},
) => {
  const res = await fetch(`${init.apiUrl ?? outputs().ApiUrl}${path}`, {
    method,
    headers: {
      ...init.headers,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    // A redirect (the affiliate link's 302) is the answer itself, as an API client sees it.
    redirect: 'manual',
  });
  const text = await res.text();
  // JSON answers parsed; anything else (the public landing page's HTML) as its text.
  const json = /json/i.test(res.headers.get('content-type') ?? '');
  return { status: res.status, body: text ? (json ? JSON.parse(text) : text) : undefined };
};

/**
 * `api`, sending the same request again as a client does (docs/api.md "Errors"): after a 503 (a dependency or the
 * local cloud late on a loaded machine; the contract's Retry-After is 2 s) and after the route throttle's 429. For
 * requests whose repeat is safe by contract (an idempotent route, or an Idempotency-Key in `init.headers`), where a
 * test checks the outcome, not how many tries it took; a test of the 503 itself uses `api`.
 */
export const apiAsClientRetries = async (method: string, path: string, init: Parameters<typeof api>[2] = {}, maxAttempts = 10) => {
  for (let attempt = 1; ; attempt++) {
    const res = await api(method, path, init);
    if ((res.status !== 503 && res.status !== 429) || attempt >= maxAttempts) return res;
    await new Promise((resolve) => setTimeout(resolve, res.status === 503 ? 2_000 : 200));
  }
};

/**
 * Point this process's functions code (use cases, adapters) at the local cloud, as the gateway does for handlers; the
 * job queues too (a kill test points them at a stand-in of its own: the integration files share one process).
 */
export const useLocalCloudEnv = () => {
  Object.assign(process.env, inject('functionEnv'));
  resetConfig();
  resetDocumentClient();
  resetJobQueues();
};

/** A customer of the Stripe stand-in (so the billing portal and top-ups find it), asked again while a fault mode refuses. */
const standInCustomer = async (userId: string, email: string): Promise<string> => {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${outputs().StripeApiUrl}/v1/customers`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_plans', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, 'metadata[userId]': userId }).toString(),
    }).catch(() => undefined);
    if (res?.ok) return ((await res.json()) as { id: string }).id;
    if (attempt >= 10) throw new Error(`the Stripe stand-in made no customer for ${userId} (${res?.status ?? 'no answer'})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/**
 * A creator's paid plan as Stripe's webhook leaves it (issue 29: the server enforces plans): a Stripe customer linked to
 * the user (what their checkout records) and an active subscription of `plan`, written through the billing data module
 * in the transaction the webhook writes (the event, the subscription, the admin counters). No credit account: tests give
 * credits themselves (billing-support.ts `giveCredits`). Answers the ids a test needs to send that subscription's
 * later events (billing-support.ts `subscriptionEvent`: past due, canceled, a change of plan).
 */
export const givePlan = async (user: { id: string; email: string }, plan: PlanType, status: 'active' | 'trialing' | 'past_due' = 'active') => {
  useLocalCloudEnv();
  const userId = user.id;
  const billing = dynamoBilling();
  const stamp = `${Date.now()}_${++counter}`;
  const customerId = await standInCustomer(userId, user.email);
  const subscriptionId = `sub_plan_${stamp}`;
  await billing.saveCustomer(userId, customerId);
  const before = await billing.getSubscription(userId);
  const now = new Date();
  const after: StoredSubscription = {
    userId,
    subscriptionId,
    customerId,
    status,
    tier: plan,
    trialEnd: status === 'trialing' ? new Date(now.getTime() + 14 * 86_400_000).toISOString() : null,
    currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    cancelAtPeriodEnd: false,
    // A second before now: a test's own later events (`created: now`) are newer.
    lastEventAt: Math.floor(now.getTime() / 1000) - 1,
    lastEventRank: 0,
    updatedAt: now.toISOString(),
    hasSubscribed: true,
  };
  const outcome = await billing.applySubscriptionEvent({ event: { id: `evt_plan_${stamp}`, type: 'customer.subscription.created' }, before, after, counters: counterDeltas(before, after) });
  if (outcome !== 'applied') throw new Error(`the test plan of ${userId} was not written (${outcome})`);
  return { customerId, subscriptionId };
};

export interface AccountOptions {
  /**
   * A creator's plan (issue 29): Pro by default, so suites test what they test whatever the feature; 'starter', or
   * 'none' (never subscribed: a test that subscribes through checkout, or proves a refusal). Other roles have none.
   */
  plan?: PlanType | 'none';
}

/**
 * An account of any role, made the way an admin makes one (the real Cognito and DynamoDB adapters), signed in; a
 * creator on a plan (`options.plan`, Pro by default).
 */
export const accountWithRole = async (role: Role, tag: string = role, options: AccountOptions = {}) => {
  useLocalCloudEnv();
  const email = uniqueEmail(tag);
  const password = 'Str0ngPassword';
  const user = await createAccount(getDeps(), { email, role, password });
  const plan = role === 'creator' ? (options.plan ?? 'pro') : 'none';
  const subscription = plan === 'none' ? undefined : await givePlan(user, plan);
  return { ...user, password, plan, subscription, token: await signIn(email, password) };
};

/** Raw POST to the gateway (webhooks: the exact bytes matter). */
export const postRaw = async (path: string, body: string, headers: Record<string, string>) => {
  const res = await fetch(`${outputs().ApiUrl}${path}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

/** Reads until `done` says yes (a webhook's effect, a job's run), every 250 ms for up to `ms`; the last value read. */
export const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

/**
 * Resolves once the local cloud's stream poller has handed every record of the table's stream written before the call
 * to the stream aggregator and it has answered (decision 0040): an aggregated figure read after it is final.
 */
export const streamsCaughtUp = async (): Promise<void> => {
  const res = await fetch(`${inject('streamsUrl')}/caught-up`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`the table stream's aggregator did not catch up: ${res.status} ${await res.text()}`);
};

/**
 * A figure the stream aggregator keeps (counters from the table's stream, docs/decisions/0040-stream-aggregator.md),
 * read once the aggregator has counted every write made before: exact, so a move counted twice or missed shows.
 * (The aggregator's own writes are stream records too; the poller hands them over and they move nothing.)
 */
export const counted = async <T>(read: () => Promise<T>): Promise<T> => {
  await streamsCaughtUp();
  return read();
};

const filesClient = () =>
  new S3Client({
    region: outputs().Region,
    endpoint: outputs().FilesEndpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

/** Puts an object into the course files bucket (the S3 emulator) as an upload would have. */
export const putFilesObject = async (key: string, body: string): Promise<void> => {
  const s3 = filesClient();
  try {
    await s3.send(new PutObjectCommand({ Bucket: outputs().FilesBucket, Key: key, Body: body }));
  } finally {
    s3.destroy();
  }
};

/** Whether the course files bucket (the S3 emulator, s3rver) holds an object at `key`. */
export const filesBucketHolds = async (key: string): Promise<boolean> => {
  const s3 = filesClient();
  try {
    await s3.send(new HeadObjectCommand({ Bucket: outputs().FilesBucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  } finally {
    s3.destroy();
  }
};

/**
 * `n` group leaders written straight into the table as the users table holds them (profiles on the role index, no
 * sign-in needed): a campaign's or a job's audience. Their emails, `<tag>-<i>@example.com`, in order.
 */
export const seedLeaders = async (tag: string, n: number): Promise<string[]> => {
  const createdAt = new Date().toISOString();
  const emails = Array.from({ length: n }, (_, i) => `${tag}-${i}@example.com`);
  for (let i = 0; i < emails.length; i += 25) {
    const items = emails.slice(i, i + 25).map((email, j) => {
      const id = `${tag}-${i + j}`;
      return { PutRequest: { Item: { ...userKeys.profile(id), ...userKeys.byRole('leader', createdAt, id), type: 'User', id, email, role: 'leader', createdAt } } };
    });
    await dynamo().send(new BatchWriteCommand({ RequestItems: { [outputs().TableName]: items } }));
  }
  return emails;
};

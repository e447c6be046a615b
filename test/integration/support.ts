import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isDeepStrictEqual } from 'node:util';
import { inject } from 'vitest';
import type { Role } from '#contracts/common.ts';
import { createAccount } from '#core/accounts/create-account.ts';
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

/** Point this process's functions code (use cases, adapters) at the local cloud, as the gateway does for handlers. */
export const useLocalCloudEnv = () => {
  Object.assign(process.env, inject('functionEnv'));
  resetConfig();
  resetDocumentClient();
};

/** An account of any role, made the way an admin makes one (the real Cognito and DynamoDB adapters), signed in. */
export const accountWithRole = async (role: Role, tag: string = role) => {
  useLocalCloudEnv();
  const email = uniqueEmail(tag);
  const password = 'Str0ngPassword';
  const user = await createAccount(getDeps(), { email, role, password });
  return { ...user, password, token: await signIn(email, password) };
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
 * A figure the stream aggregator keeps (counters from the table's stream, docs/decisions/0040-stream-aggregator.md):
 * read until it is `expected` (it lands a batch window after the write), or the wait ends; the last value read.
 */
export const counted = <T>(read: () => Promise<T>, expected: T, ms?: number): Promise<T> => eventually(read, (value) => isDeepStrictEqual(value, expected), ms);

/** Whether the course files bucket (the S3 emulator, s3rver) holds an object at `key`. */
export const filesBucketHolds = async (key: string): Promise<boolean> => {
  const s3 = new S3Client({
    region: outputs().Region,
    endpoint: outputs().FilesEndpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
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

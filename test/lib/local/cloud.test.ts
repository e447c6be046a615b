import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  GetTokensFromRefreshTokenCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_PAGE_CSP } from '#contracts/landing.ts';
import { startLocalCloud, type LocalCloud } from '#lib/local/cloud.ts';
import { S3RVER_CREDENTIALS } from '#lib/local/s3/s3rver.ts';

/**
 * One real start of the whole local cloud (DynamoDB Local, cognito-local behind the shim, the trigger
 * bridge, SES, the stand-ins, the gateway) on free ports in a temp dir, and one stop.
 */
let cloud: LocalCloud;
let dataDir: string;
let cognito: CognitoIdentityProviderClient;
const logs: string[] = [];

/** Every process whose parent chain leads to this one. */
const descendants = (): string[] => {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)!)
    .map(([, pid, ppid, args]) => ({ pid: Number(pid), ppid: Number(ppid), args: args! }));
  const found = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table) {
      if (!found.has(p.pid) && found.has(p.ppid) && !p.args.startsWith('ps ')) {
        found.add(p.pid);
        grew = true;
      }
    }
  }
  return table.filter((p) => p.pid !== process.pid && found.has(p.pid) && !p.args.startsWith('ps ')).map((p) => p.args);
};

const signUp = (email: string, password: string, metadata?: Record<string, string>) =>
  cognito.send(
    new SignUpCommand({
      ClientId: cloud.outputs.UserPoolClientId,
      Username: email,
      Password: password,
      UserAttributes: [{ Name: 'email', Value: email }],
      ...(metadata ? { ClientMetadata: metadata } : {}),
    }),
  );

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'local-cloud-'));
  cloud = await startLocalCloud({ dataDir, ports: 'auto', web: false, seed: false, log: (l) => logs.push(l) });
  cognito = new CognitoIdentityProviderClient({
    endpoint: cloud.outputs.CognitoEndpoint,
    region: cloud.outputs.Region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterAll(async () => {
  cognito?.destroy();
  await cloud?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the local cloud', () => {
  it('writes outputs.json with exactly the keys of ARCHITECTURE.md', () => {
    const outputs = JSON.parse(readFileSync(join(dataDir, 'outputs.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(outputs).sort()).toEqual(
      [
        'Region', 'ApiUrl', 'WebUrl', 'PagesUrl', 'UserPoolId', 'UserPoolClientId', 'CognitoEndpoint', 'TableName',
        'DynamoDbEndpoint', 'SesEndpoint', 'StripeApiUrl', 'StripeWebhookSecret', 'StripeConnectWebhookSecret', 'BedrockEndpoint', 'SecretsEndpoint', 'LambdaEndpoint',
        'FilesEndpoint', 'FilesBucket', 'AdminEmail', 'AdminPassword', 'DemoCreatorEmail', 'DemoCreatorPassword', 'DemoNewCreatorEmail', 'DemoNewCreatorPassword',
        'DemoLeaderEmail', 'DemoLeaderPassword',
        'TeamsTenantId', 'TeamsClientId', 'TeamsClientSecret', 'TeamsOrganizerEmail', 'GraphApiUrl', 'MicrosoftLoginUrl',
        'DemoLearnerEmail', 'DemoLearnerPassword', 'KmsEndpoint', 'CertificateKeyArn', 'SqsEndpoint',
        'ZoomAccountId', 'ZoomClientId', 'ZoomClientSecret', 'ZoomApiUrl', 'ZoomOAuthUrl',
        'GoogleCalendarApiUrl', 'GoogleOAuthUrl', 'GoogleTokenUrl', 'GoogleOAuthClientId',
        // Custom domains (API.md "Branding and custom domains (Pro)"; decision 0055).
        'DnsControlUrl', 'DnsResolver', 'StorefrontUrl',
      ].sort(),
    );
    expect(outputs.StripeWebhookSecret).toMatch(/^whsec_/);
    expect(outputs.StripeConnectWebhookSecret).toMatch(/^whsec_/);
    expect(outputs.StripeConnectWebhookSecret).not.toBe(outputs.StripeWebhookSecret);
  });

  it("runs the Zoom stand-in, whose demo app gets a token, and points the functions at it", async () => {
    const { ZoomAccountId, ZoomClientId, ZoomClientSecret, ZoomApiUrl, ZoomOAuthUrl } = cloud.outputs;
    const basic = Buffer.from(`${ZoomClientId}:${ZoomClientSecret}`).toString('base64');
    const token = await fetch(`${ZoomOAuthUrl}/oauth/token?grant_type=account_credentials&account_id=${ZoomAccountId}`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    expect((await fetch(`${ZoomApiUrl}/users/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);
    expect(cloud.env['ZOOM_API_URL']).toBe(ZoomApiUrl);
    expect(cloud.env['ZOOM_OAUTH_URL']).toBe(ZoomOAuthUrl);
  });

  it('runs the S3 emulator with the course files bucket, and points the functions at it', async () => {
    const s3 = new S3Client({
      region: cloud.outputs.Region,
      endpoint: cloud.outputs.FilesEndpoint,
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    try {
      await expect(s3.send(new HeadBucketCommand({ Bucket: 'course-files' }))).resolves.toBeDefined();
    } finally {
      s3.destroy();
    }
    expect(cloud.outputs.FilesBucket).toBe('course-files');
    expect(cloud.env).toMatchObject({ FILES_BUCKET: 'course-files', FILES_ENDPOINT: cloud.outputs.FilesEndpoint });
    expect(cloud.env.FILES_ENDPOINT).toBe(`http://127.0.0.1:${cloud.ports.s3}`);
  });

  it("runs the SQS stand-in with each sliced job's FIFO queue and their dead-letter queue, and gives the functions the URLs", async () => {
    expect(cloud.env.SQS_ENDPOINT).toBe(cloud.outputs.SqsEndpoint);
    const urls = JSON.parse(cloud.env.JOB_QUEUE_URLS!) as Record<string, string>;
    expect(urls).toEqual(cloud.jobQueues.queueUrls);
    expect(Object.keys(urls)).toContain('credit-reset');
    const sqs = new SQSClient({ region: cloud.outputs.Region, endpoint: cloud.outputs.SqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: urls['credit-reset'], AttributeNames: ['All'] }));
      expect(Attributes).toMatchObject({ FifoQueue: 'true', VisibilityTimeout: '15' });
      expect(JSON.parse(Attributes!.RedrivePolicy!)).toMatchObject({ maxReceiveCount: 3, deadLetterTargetArn: expect.stringMatching(/job-slices-dead-letters\.fifo$/) });
    } finally {
      sqs.destroy();
    }
  });

  it('serves the Stripe secrets through its secrets stand-in, and none of them through the environment', async () => {
    const env = cloud.env;
    const read = (id: string) =>
      fetch(`http://localhost:${env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT}/secretsmanager/get?secretId=${encodeURIComponent(id)}`, {
        headers: { 'X-Aws-Parameters-Secrets-Token': env.AWS_SESSION_TOKEN! },
      }).then((res) => res.json() as Promise<{ SecretString: string }>);
    expect((await read(env.STRIPE_WEBHOOK_SECRET_ID!)).SecretString).toBe(cloud.outputs.StripeWebhookSecret);
    expect((await read(env.STRIPE_CONNECT_WEBHOOK_SECRET_ID!)).SecretString).toBe(cloud.outputs.StripeConnectWebhookSecret);
    expect((await read(env.STRIPE_API_KEY_SECRET_ID!)).SecretString).toMatch(/^sk_test_/);
    expect(Object.values(env).filter((value) => value.startsWith('sk_') || value.startsWith('whsec_'))).toEqual([]);
  });

  it('signs a creator up through the real Cognito API, the trigger confirms them, and refresh works through the shim', async () => {
    const signedUp = await signUp('new.creator@example.com', 'GoodPass123');
    expect(signedUp.UserConfirmed).toBe(true); // only the pre sign-up trigger confirms
    expect(logs.some((l) => l.includes('[trigger] pre-sign-up PreSignUp_SignUp ok'))).toBe(true);

    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: cloud.outputs.UserPoolClientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'new.creator@example.com', PASSWORD: 'GoodPass123' },
      }),
    );
    const refreshed = await cognito.send(
      new GetTokensFromRefreshTokenCommand({
        ClientId: cloud.outputs.UserPoolClientId,
        RefreshToken: auth.AuthenticationResult!.RefreshToken!,
      }),
    );
    expect(refreshed.AuthenticationResult?.AccessToken).toMatch(/^ey/);
    await expect(
      cognito.send(new GlobalSignOutCommand({ AccessToken: refreshed.AuthenticationResult!.AccessToken! })),
    ).resolves.toBeDefined();
  });

  it('refuses a sign-up asking for the admin role with the trigger\'s message', async () => {
    await expect(signUp('sneaky@example.com', 'GoodPass123', { role: 'admin' })).rejects.toMatchObject({
      name: 'UserLambdaValidationException',
    });
  });

  it('refuses a weak password as the cloud pool does', async () => {
    await expect(signUp('weak@example.com', 'weakpass')).rejects.toMatchObject({
      name: 'InvalidPasswordException',
      message: 'Password did not conform with policy: Password must have uppercase characters',
    });
  });

  it('gives the SPA the pages origin, on another host than the app, and serves nothing there but /p/<slug>', async () => {
    const config = JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8')) as Record<string, string>;
    expect(config['PagesUrl']).toBe(cloud.outputs.PagesUrl);
    expect(config['AppUrl']).toBe(cloud.outputs.WebUrl);
    expect(new URL(cloud.outputs.PagesUrl).hostname).not.toBe(new URL(cloud.outputs.WebUrl).hostname);
    const res = await fetch(`${cloud.outputs.PagesUrl}/`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox /);
  });

  it("answers an unpublished /p/<slug> with the public page route's own 404 and page headers, through the gateway", async () => {
    const res = await fetch(`${cloud.outputs.PagesUrl}/p/nobody-published-this`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PUBLIC_PAGE_CSP);
    expect(res.headers.get('apigw-requestid')).toBeTruthy();
  });

  it('answers GET /api/health through the gateway', async () => {
    const res = await fetch(`${cloud.outputs.ApiUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers GET /api/me without a token with 401 and the contract body', async () => {
    const res = await fetch(`${cloud.outputs.ApiUrl}/api/me`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String) } });
  });

  it('answers GET /api/me with the caller\'s role when the access token is valid', async () => {
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: cloud.outputs.UserPoolClientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'new.creator@example.com', PASSWORD: 'GoodPass123' },
      }),
    );
    const res = await fetch(`${cloud.outputs.ApiUrl}/api/me`, {
      headers: { authorization: `Bearer ${auth.AuthenticationResult!.AccessToken}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: 'new.creator@example.com', role: 'creator' });
  });

  it('answers an unknown route with 404 and the contract body', async () => {
    const res = await fetch(`${cloud.outputs.ApiUrl}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('leaves no child process behind when stopped', async () => {
    expect(descendants().length).toBeGreaterThan(0);
    await cloud.stop();
    expect(descendants()).toEqual([]);
  });
});

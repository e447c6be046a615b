import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecretsStandIn, tokenHeader, type SecretsStandIn } from '#lib/local/secrets/stand-in.ts';

const token = 'session-token-of-the-function';
let standIn: SecretsStandIn;

/** What the functions' adapter sends in Lambda: GET with the secret id url-encoded and the session token. */
const getSecret = (secretId: string, headers: Record<string, string> = { [tokenHeader]: token }) =>
  fetch(`${standIn.url}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`, { headers });

beforeAll(async () => {
  standIn = await startSecretsStandIn({
    port: 0,
    token,
    secrets: { 'course-platform/stripe-api-key': 'sk_test_from_the_map' },
  });
});

afterAll(async () => {
  await standIn?.stop();
});

describe('the secrets stand-in (the Parameters and Secrets Lambda Extension API)', () => {
  it('serves a secret by id in Secrets Manager\'s GetSecretValue shape', async () => {
    const res = await getSecret('course-platform/stripe-api-key');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      Name: 'course-platform/stripe-api-key',
      SecretString: 'sk_test_from_the_map',
      VersionStages: ['AWSCURRENT'],
      ARN: expect.stringMatching(/^arn:aws:secretsmanager:[a-z0-9-]+:\d{12}:secret:course-platform\/stripe-api-key-[0-9a-f]{6}$/),
      VersionId: expect.any(String),
      CreatedDate: expect.any(String),
    });
    // The ARN finds the same secret, as it does in Secrets Manager.
    expect(await (await getSecret(body.ARN as string)).json()).toMatchObject({ SecretString: 'sk_test_from_the_map' });
  });

  it('refuses a request without the session token, or with another one, with 403', async () => {
    const missing = await getSecret('course-platform/stripe-api-key', {});
    expect(missing.status).toBe(403);
    expect(await missing.text()).not.toContain('sk_test');
    expect((await getSecret('course-platform/stripe-api-key', { [tokenHeader]: 'someone-else' })).status).toBe(403);
  });

  it('answers an unknown secret with 400 and ResourceNotFoundException', async () => {
    const res = await getSecret('course-platform/nothing-here');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      __type: 'ResourceNotFoundException',
      message: "Secrets Manager can't find the specified secret.",
    });
  });

  it('refuses what the extension refuses: no secretId, other parameters, other methods, forwarded requests', async () => {
    const headers = { [tokenHeader]: token };
    expect((await fetch(`${standIn.url}/secretsmanager/get`, { headers })).status).toBe(400);
    expect((await fetch(`${standIn.url}/secretsmanager/get?secretId=x&foo=1`, { headers })).status).toBe(400);
    expect((await fetch(`${standIn.url}/secretsmanager/get?secretId=x`, { method: 'POST', headers })).status).toBe(405);
    expect((await getSecret('course-platform/stripe-api-key', { ...headers, 'x-forwarded-for': '10.0.0.1' })).status).toBe(400);
  });
});

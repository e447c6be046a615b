import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessTokenVerifier } from '#lib/local/gateway/access-token.ts';

/** A user pool of the test's own: its JWKS served over HTTP, as cognito-local serves it. */
const poolId = 'local_pool';
const clientId = 'app-client';
let server: Server;
let endpoint: string;
let sign: (claims: JWTPayload, options?: { expiresInSeconds?: number; issuer?: string; foreignKey?: boolean }) => Promise<string>;

beforeAll(async () => {
  const pool = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(pool.publicKey)), kid: 'pool-key', alg: 'RS256', use: 'sig' };
  server = createServer((req, res) => {
    res.writeHead(req.url === `/${poolId}/.well-known/jwks.json` ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sign = (claims, options = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'pool-key' })
      .setIssuer(options.issuer ?? `${endpoint}/${poolId}`)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + (options.expiresInSeconds ?? 3600))
      .sign(options.foreignKey ? foreign.privateKey : pool.privateKey);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.useRealTimers());

const access = { sub: 'user-1', token_use: 'access', client_id: clientId };

describe("the local gateway's JWT authorizer", () => {
  it('admits an access token of the pool issued to the app client, and answers its claims', async () => {
    const verify = accessTokenVerifier({ cognitoEndpoint: endpoint, userPoolId: poolId, clientId });
    const token = await sign(access);
    expect(await verify(`Bearer ${token}`)).toMatchObject(access);
    expect(await verify(`bearer ${token}`)).toMatchObject(access);
  });

  it('refuses no token, an ID token, another client, another issuer, a foreign signature and an expired token', async () => {
    const verify = accessTokenVerifier({ cognitoEndpoint: endpoint, userPoolId: poolId, clientId });
    const refused = [
      undefined,
      'Basic abc',
      `Bearer ${await sign({ ...access, token_use: 'id' })}`,
      `Bearer ${await sign({ ...access, client_id: 'another-client' })}`,
      `Bearer ${await sign(access, { issuer: `${endpoint}/another_pool` })}`,
      `Bearer ${await sign(access, { foreignKey: true })}`,
      `Bearer ${await sign(access, { expiresInSeconds: -10 })}`,
      `Bearer ${(await sign(access)).slice(0, -4)}AAAA`,
    ];
    for (const authorization of refused) expect(await verify(authorization), String(authorization)).toBeUndefined();
  });

  it('checks the expiry of a token it admitted at every use: admitted again until it expires, refused after', async () => {
    const verify = accessTokenVerifier({ cognitoEndpoint: endpoint, userPoolId: poolId, clientId });
    const token = await sign(access, { expiresInSeconds: 60 });
    for (let i = 0; i < 3; i++) expect(await verify(`Bearer ${token}`)).toMatchObject(access);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect(await verify(`Bearer ${token}`)).toBeUndefined();
    // Refused again the same way once forgotten: jose's own check of the expiry.
    expect(await verify(`Bearer ${token}`)).toBeUndefined();
  });
});

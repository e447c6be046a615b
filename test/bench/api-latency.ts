import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { routes } from '#functions/routes.ts';
import { startGateway } from '#lib/local/gateway.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { freePorts } from '#lib/local/ports.ts';
import type { LoadSlice, LoadSpec } from './load-worker.ts';
import { percentile } from './stats.ts';

export const CONNECTIONS = 50;
const WARMUP_SECONDS = 1;
/** Measured seconds per side, split into ROUNDS alternating slices. */
const SECONDS = 6;
const ROUNDS = 2;

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The seeded admin's access token, through the same Cognito API and flow the SPA uses. */
const signInAdmin = async (cloud: LocalCloud): Promise<{ token: string; sub: string }> => {
  const { outputs } = cloud;
  const cognito = new CognitoIdentityProviderClient({ region: outputs.Region, endpoint: outputs.CognitoEndpoint, credentials });
  const res = await cognito.send(
    new InitiateAuthCommand({
      ClientId: outputs.UserPoolClientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: outputs.AdminEmail, PASSWORD: outputs.AdminPassword },
    }),
  );
  cognito.destroy();
  const token = res.AuthenticationResult?.AccessToken;
  if (!token) throw new Error(`no access token for ${outputs.AdminEmail} (challenge ${res.ChallengeName ?? 'none'})`);
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: string };
  if (!payload.sub) throw new Error('the access token has no sub');
  return { token, sub: payload.sub };
};

/**
 * The gateway the load goes to. The local gateway throttles each route like the cloud stage (GET /api/me: the
 * default 50 rps, burst 100), so 50 connections would mostly measure 429s. The bench therefore starts a second
 * instance of the same gateway code against the same Cognito and DynamoDB, with the throttles lifted: the
 * latency of verification, event building and the handler is what is measured, not the rate limit.
 */
export const startUnthrottledGateway = async (cloud: LocalCloud) =>
  startGateway({
    port: (await freePorts()).api,
    cognitoEndpoint: cloud.outputs.CognitoEndpoint,
    userPoolId: cloud.outputs.UserPoolId,
    clientId: cloud.outputs.UserPoolClientId,
    routes: routes.map((r) => ({ ...r, throttle: { rate: 1e9, burst: 1e9 } })),
    log: () => undefined,
  });

/** autocannon in a child process (its own core on a 2-core machine): optional warm-up, then the measured slice. */
const loadSlice = (url: string, token: string, warmupSeconds: number, seconds: number): Promise<LoadSlice> => {
  const spec: LoadSpec = { url, headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS, warmupSeconds, seconds };
  const worker = fileURLToPath(new URL('./load-worker.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as LoadSlice);
      } catch {
        reject(new Error(`load generator failed (exit ${code}): ${err.trim() || out.trim()}`));
      }
    });
  });
};

/** A raw DynamoDB client configured like the handlers' (keep-alive agent, 50 sockets), reading one item. */
const getItemLoad = (cloud: LocalCloud, sub: string) => {
  const { outputs } = cloud;
  const client = new DynamoDBClient({
    region: outputs.Region,
    endpoint: outputs.DynamoDbEndpoint,
    credentials,
    requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true, maxSockets: CONNECTIONS }) }),
  });
  const command = new GetItemCommand({
    TableName: outputs.TableName,
    Key: { pk: { S: `USER#${sub}` }, sk: { S: 'PROFILE' } },
  });
  /** `inFlight` requests kept outstanding for `seconds`. */
  const run = async (seconds: number, inFlight = CONNECTIONS) => {
    const times: number[] = [];
    let errors = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    const lane = async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        try {
          await client.send(command);
          times.push(performance.now() - t0);
        } catch {
          errors += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
    return { times, errors, seconds: (performance.now() - started) / 1000 };
  };
  const probe = async () => {
    const { Item } = await client.send(command);
    if (!Item) throw new Error(`no profile item USER#${sub} in ${outputs.TableName}`);
  };
  return { run, probe, close: () => client.destroy() };
};

export interface Latency {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  errors: number;
}

export interface ApiMeasurement {
  gateway: Latency & { non2xx: number; statusCodes: Record<string, number> };
  floor: Latency;
  /** One GetItem at a time: DynamoDB Local's own latency, without queueing. */
  single: Latency;
}

/**
 * GET /api/me through the gateway next to the floor (raw GetItem of the same profile item the handler reads), at
 * the same concurrency. The two alternate in slices, so JIT warm-up of DynamoDB Local and the noise of a shared
 * machine fall on both alike.
 */
export const measureApi = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<ApiMeasurement> => {
  const { token, sub } = await signInAdmin(cloud);
  const getItem = getItemLoad(cloud, sub);
  try {
    await getItem.probe();
    const single = await getItem.run(1, 1);
    await getItem.run(WARMUP_SECONDS);
    const floor: Awaited<ReturnType<typeof getItem.run>>[] = [];
    const gateway: LoadSlice[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      log(`round ${round + 1}/${ROUNDS}: GetItem ${CONNECTIONS} in flight, then GET /api/me with ${CONNECTIONS} connections`);
      floor.push(await getItem.run(SECONDS / ROUNDS));
      gateway.push(await loadSlice(`${gatewayUrl}/api/me`, token, round === 0 ? WARMUP_SECONDS : 0, SECONDS / ROUNDS));
    }
    const statusCodes: Record<string, number> = {};
    for (const slice of gateway) for (const [code, n] of Object.entries(slice.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
    const gatewayTimes = gateway.flatMap((s) => s.times);
    const floorTimes = floor.flatMap((s) => s.times);
    const sum = <T>(items: T[], f: (t: T) => number) => items.reduce((acc, t) => acc + f(t), 0);
    return {
      gateway: {
        p50: percentile(gatewayTimes, 50),
        p99: percentile(gatewayTimes, 99),
        requestsPerSecond: sum(gateway, (s) => s.requestsPerSecond * s.seconds) / sum(gateway, (s) => s.seconds),
        errors: sum(gateway, (s) => s.errors),
        non2xx: sum(gateway, (s) => s.non2xx),
        statusCodes,
      },
      floor: {
        p50: percentile(floorTimes, 50),
        p99: percentile(floorTimes, 99),
        requestsPerSecond: (floorTimes.length + sum(floor, (s) => s.errors)) / sum(floor, (s) => s.seconds),
        errors: sum(floor, (s) => s.errors),
      },
      single: {
        p50: percentile(single.times, 50),
        p99: percentile(single.times, 99),
        requestsPerSecond: single.times.length / single.seconds,
        errors: single.errors,
      },
    };
  } finally {
    getItem.close();
  }
};

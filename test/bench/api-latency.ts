import { Agent } from 'node:http';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { routes } from '#functions/routes.ts';
import { startGateway } from '#lib/local/gateway/http-api.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { freePorts } from '#lib/local/ports.ts';
import { combineSlices, runLoad, type RouteLatency } from './load.ts';
import type { LoadSlice } from './load-worker.ts';
import { keepInFlight, percentile } from './stats.ts';

export const CONNECTIONS = 50;
const WARMUP_SECONDS = 1;
/** Measured seconds per side, split into ROUNDS alternating slices. */
const SECONDS = 6;
const ROUNDS = 2;

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** An account's access token, through the same Cognito API and flow the SPA uses. */
export const signIn = async (cloud: LocalCloud, email: string, password: string): Promise<{ token: string; sub: string }> => {
  const { outputs } = cloud;
  const cognito = new CognitoIdentityProviderClient({ region: outputs.Region, endpoint: outputs.CognitoEndpoint, credentials });
  const res = await cognito.send(
    new InitiateAuthCommand({
      ClientId: outputs.UserPoolClientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  cognito.destroy();
  const token = res.AuthenticationResult?.AccessToken;
  if (!token) throw new Error(`no access token for ${email} (challenge ${res.ChallengeName ?? 'none'})`);
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: string };
  if (!payload.sub) throw new Error('the access token has no sub');
  return { token, sub: payload.sub };
};

/**
 * The gateway the load goes to. The local gateway throttles each route like the cloud stage (GET /api/me: the
 * route table's rates), and a long run at 50 connections could measure 429s instead of latency. The bench therefore starts a second
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
  const run = (seconds: number, inFlight = CONNECTIONS) => keepInFlight(() => client.send(command), seconds, inFlight);
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
  gateway: RouteLatency;
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
  const { token, sub } = await signIn(cloud, cloud.outputs.AdminEmail, cloud.outputs.AdminPassword);
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
      gateway.push(
        await runLoad({
          url: `${gatewayUrl}/api/me`,
          headers: { authorization: `Bearer ${token}` },
          connections: CONNECTIONS,
          warmupSeconds: round === 0 ? WARMUP_SECONDS : 0,
          seconds: SECONDS / ROUNDS,
        }),
      );
    }
    const floorTimes = floor.flatMap((s) => s.times);
    const sum = <T>(items: T[], f: (t: T) => number) => items.reduce((acc, t) => acc + f(t), 0);
    return {
      gateway: combineSlices(gateway),
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

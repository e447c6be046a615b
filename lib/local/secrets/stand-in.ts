import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenAt } from '../http-server.ts';

/**
 * The local AWS Parameters and Secrets Lambda Extension: the HTTP API a function reads its secrets through in Lambda
 * (`GET /secretsmanager/get?secretId=<id>` on localhost:2773, with the `X-Aws-Parameters-Secrets-Token` header set
 * to the function's AWS_SESSION_TOKEN), serving an in-memory map of secret id -> value that the local cloud fills at
 * start. The answers follow AWS's open-source implementation of the same API (aws-secretsmanager-agent): a missing
 * or wrong token is 403, an unknown secret is 400 with Secrets Manager's ResourceNotFoundException, only GET.
 */
export interface SecretsStandInOptions {
  port: number;
  host?: string;
  /** The value callers must send in X-Aws-Parameters-Secrets-Token (their AWS_SESSION_TOKEN). */
  token: string;
  /** Secret id (name) -> SecretString. */
  secrets: Readonly<Record<string, string>>;
  region?: string;
}

export interface SecretsStandIn {
  url: string;
  stop(): Promise<void>;
}

/** The session token the local cloud gives its functions (AWS_SESSION_TOKEN) and its stand-in accepts. */
export const localSessionToken = 'local-parameters-secrets-token';

export const tokenHeader = 'x-aws-parameters-secrets-token';

interface StoredSecret {
  ARN: string;
  Name: string;
  SecretString: string;
  VersionId: string;
  VersionStages: string[];
  CreatedDate: string;
}

const send = (res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8'): void => {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
};

/** Secrets Manager's error body (JSON 1.1), as the extension passes it through. */
const serviceError = (res: ServerResponse, type: string, message: string): void =>
  send(res, 400, JSON.stringify({ __type: type, message }), 'application/x-amz-json-1.1');

export const startSecretsStandIn = async (options: SecretsStandInOptions): Promise<SecretsStandIn> => {
  const region = options.region ?? 'eu-west-2';
  const created = new Date().toISOString();
  const store = new Map<string, StoredSecret>();
  for (const [name, value] of Object.entries(options.secrets)) {
    // Secrets Manager appends six random characters to the name in the ARN.
    const arn = `arn:aws:secretsmanager:${region}:000000000000:secret:${name}-${randomBytes(3).toString('hex')}`;
    const secret = { ARN: arn, Name: name, SecretString: value, VersionId: randomUUID(), VersionStages: ['AWSCURRENT'], CreatedDate: created };
    store.set(name, secret);
    store.set(arn, secret);
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/ping') return send(res, 200, 'healthy');
    if (req.headers['x-forwarded-for'] !== undefined) return send(res, 400, 'Forwarded');
    if (req.headers[tokenHeader] !== options.token) return send(res, 403, 'Bad Token');
    if (req.method !== 'GET') return send(res, 405, 'Not allowed');
    if (url.pathname !== '/secretsmanager/get') return send(res, 404, 'Not found');

    const query: Record<string, string> = {};
    for (const [key, value] of url.searchParams) {
      if (!['secretId', 'versionId', 'versionStage'].includes(key)) return send(res, 400, `unknown parameter: ${key}`);
      query[key] = value;
    }
    if (!query.secretId) return send(res, 400, 'missing parameter secretId');
    const secret = store.get(query.secretId);
    if (!secret) return serviceError(res, 'ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    if (query.versionId !== undefined && query.versionId !== secret.VersionId) {
      return serviceError(res, 'ResourceNotFoundException', `Secrets Manager can't find the specified secret value for VersionId: ${query.versionId}`);
    }
    if (query.versionStage !== undefined && !secret.VersionStages.includes(query.versionStage)) {
      return serviceError(res, 'ResourceNotFoundException', `Secrets Manager can't find the specified secret value for staging label: ${query.versionStage}`);
    }
    send(res, 200, JSON.stringify(secret), 'application/json');
  };

  const server = createServer(handle);
  const url = await listenAt(server, options.port, options.host ?? '127.0.0.1');
  return { url, stop: () => closeServer(server) };
};

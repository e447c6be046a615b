import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Every port the local cloud listens on, and the environment variable that moves each one. */
export interface Ports {
  dynamodb: number;
  cognito: number;
  /** cognito-local itself, behind the shim on `cognito`. */
  cognitoLocal: number;
  /** The Lambda invoke endpoint cognito-local calls for its triggers. */
  lambda: number;
  ses: number;
  stripe: number;
  bedrock: number;
  /** The AWS Parameters and Secrets Lambda Extension's HTTP API (its default port in Lambda). */
  secrets: number;
  api: number;
  web: number;
  /** The pages origin: published landing pages at /p/<slug>, apart from the app. */
  pages: number;
  /** The S3 emulator (s3rver) holding the course files bucket. */
  s3: number;
  /** The KMS stand-in: the certificate signing key (lib/local/kms/). */
  kms: number;
  /** The Microsoft stand-in: Microsoft identity's token endpoint and Graph v1.0 (lib/local/microsoft/). */
  microsoft: number;
  /** The SQS stand-in: the job engine's queues (lib/local/sqs/). */
  sqs: number;
  /** The Zoom stand-in: OAuth token endpoint and REST API v2 (lib/local/zoom/). */
  zoom: number;
  /** The Google stand-in: OAuth consent, token endpoint and Calendar v3 (lib/local/google/). */
  google: number;
  /** The DNS stand-in's control endpoint (lib/local/dns/; its UDP server takes any free port). */
  dns: number;
  /** The storefront entry: custom domains by `Host` (lib/local/storefront/). */
  storefront: number;
}

export const portVariables: Record<keyof Ports, string> = {
  dynamodb: 'DYNAMODB_PORT',
  cognito: 'COGNITO_PORT',
  cognitoLocal: 'COGNITO_LOCAL_PORT',
  lambda: 'LAMBDA_PORT',
  ses: 'SES_PORT',
  stripe: 'STRIPE_PORT',
  bedrock: 'BEDROCK_PORT',
  secrets: 'SECRETS_PORT',
  api: 'API_PORT',
  web: 'WEB_PORT',
  pages: 'PAGES_PORT',
  s3: 'S3_PORT',
  kms: 'KMS_PORT',
  microsoft: 'MICROSOFT_PORT',
  sqs: 'SQS_PORT',
  zoom: 'ZOOM_PORT',
  google: 'GOOGLE_PORT',
  dns: 'DNS_PORT',
  storefront: 'STOREFRONT_PORT',
};

export const defaultPorts: Ports = {
  dynamodb: 8000,
  cognito: 9229,
  cognitoLocal: 9230,
  lambda: 9231,
  ses: 8005,
  stripe: 12111,
  bedrock: 8088,
  secrets: 2773,
  api: 3001,
  web: 5173,
  pages: 8089,
  s3: 4569,
  kms: 8090,
  microsoft: 8094,
  sqs: 9324,
  zoom: 8091,
  google: 8093,
  dns: 8095,
  storefront: 8096,
};

const portNames = Object.keys(defaultPorts) as (keyof Ports)[];

/** Defaults, overridden by the environment variables, overridden by explicit values. */
export const portsFromEnv = (
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Ports> = {},
): Ports => {
  const ports = { ...defaultPorts };
  for (const name of portNames) {
    const raw = env[portVariables[name]];
    if (raw !== undefined && raw !== '') {
      const port = Number(raw);
      if (!Number.isInteger(port) || port < 1 || port > 65535) {
        throw new Error(`${portVariables[name]}=${raw} is not a port number (1-65535).`);
      }
      ports[name] = port;
    }
    const override = overrides[name];
    if (override !== undefined) ports[name] = override;
  }
  return ports;
};

/**
 * One free port per piece (tests run next to a developer's `npm start`), drawn below the system's ephemeral range:
 * a port the kernel hands out for outgoing connections or `listen(0)` could be taken by another socket between this
 * check and the piece's own `listen` (seen in CI as the pages origin's port already in use).
 */
export const freePorts = async (): Promise<Ports> => {
  const [low, high] = [AUTO_PORTS_FROM, ephemeralRangeStart() - 1];
  const chosen = new Set<number>();
  const ports: Partial<Ports> = {};
  for (const name of portNames) {
    for (let attempt = 0; ; attempt += 1) {
      const port = low + Math.floor(Math.random() * (high - low + 1));
      if (chosen.has(port)) continue;
      if (!(await listenError(port))) {
        chosen.add(port);
        ports[name] = port;
        break;
      }
      if (attempt > 200) throw new Error(`No free port found between ${low} and ${high}.`);
    }
  }
  return ports as Ports;
};

const AUTO_PORTS_FROM = 20000;

/** The first port of the kernel's ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range; elsewhere 49152). */
export const ephemeralRangeStart = (read: () => string = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')): number => {
  try {
    const start = Number(read().trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > AUTO_PORTS_FROM + 1000 ? start : 49152;
  } catch {
    return 49152;
  }
};

/** Listens on `port` and closes again: the error that kept it from listening, or undefined when the port is free. */
const listenError = async (port: number): Promise<NodeJS.ErrnoException | undefined> => {
  try {
    const server = await listenOn(port);
    await new Promise((resolve) => server.close(resolve));
    return undefined;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
};

const listenOn = (port: number) =>
  new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });

/** Fails with a message naming the port and the variable that moves it, before anything starts. */
export const assertPortsFree = async (ports: Ports, skip: (keyof Ports)[] = []): Promise<void> => {
  for (const name of portNames) {
    if (skip.includes(name)) continue;
    const error = await listenError(ports[name]);
    if (error) throw error.code === 'EADDRINUSE' ? new PortInUseError(ports[name], portVariables[name]) : error;
  }
};

/**
 * Free ports drawn at random can still be taken by another program between the draw and the listen: a start on
 * drawn ports that meets a port in use (having stopped what it started) is made again, up to `attempts` times, each
 * drawing its ports anew.
 */
export const startAgainOnPortTaken = async <T>(start: () => Promise<T>, log: (line: string) => void = () => undefined, attempts = 3): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt >= attempts) throw error;
      log(`[local] ${error.message} Starting again on other ports.`);
    }
  }
};

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly variable: string,
  ) {
    super(
      `Port ${port} is already in use (is another \`npm start\` running?). ` +
        `Stop what uses it or choose another port with ${variable}=<port>.`,
    );
    this.name = 'PortInUseError';
  }
}

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

/** One free ephemeral port per piece (tests run next to a developer's `npm start`). */
export const freePorts = async (): Promise<Ports> => {
  const held = await Promise.all(portNames.map(() => listenOn(0)));
  const ports = Object.fromEntries(
    portNames.map((name, i) => [name, (held[i]!.address() as { port: number }).port]),
  ) as unknown as Ports;
  await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
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
    try {
      const server = await listenOn(ports[name]);
      await new Promise((resolve) => server.close(resolve));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw new PortInUseError(ports[name], portVariables[name]);
      }
      throw error;
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

import type { Server } from 'node:http';
import { closeServer } from '../http-server.ts';

type StartSes = (config: { host?: string; port?: number }) => Promise<Server>;

/**
 * aws-ses-v2-local in this process (it is a small express app): SES v2 SendEmail/SendBulkEmail, sent
 * mail kept in memory, a viewer at `/` and `GET /store` for tests.
 */
export const startSes = async (opts: { port: number }): Promise<{ url: string; stop(): Promise<void> }> => {
  const mod = (await import('aws-ses-v2-local')) as unknown as { default: StartSes | { default: StartSes } };
  const start = typeof mod.default === 'function' ? mod.default : mod.default.default;
  const server = await start({ host: '127.0.0.1', port: opts.port });
  return { url: `http://127.0.0.1:${opts.port}`, stop: () => closeServer(server) };
};

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PortInUseError } from './ports.ts';

/** Listens on loopback; a taken port is the same clear error as the start-up check gives. */
export const listen = (server: Server, port: number, variable: string): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, variable) : error),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });

/** Stops accepting, drops idle keep-alive connections, resolves once closed. */
export const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** Listens on `host:port` (port 0: any free one) and answers the URL a client on this machine reaches it at. */
export const listenAt = async (server: Server, port: number, host: string): Promise<string> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actual } = server.address() as AddressInfo;
  const reachableHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachableHost}:${actual}`;
};

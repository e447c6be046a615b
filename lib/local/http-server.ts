import type { Server } from 'node:http';
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

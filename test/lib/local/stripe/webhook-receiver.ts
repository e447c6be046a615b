import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface Received {
  body: string;
  signature: string;
}

/**
 * A tiny webhook endpoint for the stand-in's tests: records raw bodies and signatures of what it accepted, answers
 * with the queued statuses first, then 200. `events(secret)` verifies them as the platform's handlers do.
 */
export const startReceiver = async (path: string) => {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = statuses.shift() ?? 200;
      if (status === 200) received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature']) });
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    statuses,
    /** Every accepted event, verified with `secret` (throws on a signature that does not hold). */
    events: (secret: string): Stripe.Event[] =>
      received.map(({ body, signature }) => Stripe.webhooks.constructEvent(body, signature, secret)),
    clear() {
      received.length = 0;
      statuses.length = 0;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { webhookHttp } from '#adapters/webhook-http.ts';

const post = { headers: { 'content-type': 'application/json' }, body: '{}' };

/** A receiver on 127.0.0.1 answering `status` (and `location`), counting requests. */
const receiver = async (status: number, extra: Record<string, string> = {}, delayMs = 0) => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    setTimeout(() => {
      res.writeHead(status, extra);
      res.end('x'.repeat(100_000));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, hits: () => hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

describe('the webhook sender', () => {
  it('refuses before connecting when ANY address of the host is not public (DNS rebinding included)', async () => {
    let resolved = 0;
    const sender = webhookHttp({ allowLocalHttp: false, resolve: async () => (resolved++, [{ address: '93.184.215.14', family: 4 }, { address: '169.254.169.254', family: 4 }]) });
    expect(await sender.send({ url: 'https://hooks.example.com/in', ...post })).toEqual({ kind: 'refused', reason: 'hooks.example.com resolves to 169.254.169.254, which is not a public address.' });
    expect(resolved).toBe(1);
    const mapped = webhookHttp({ allowLocalHttp: false, resolve: async () => [{ address: '::ffff:127.0.0.1', family: 6 }] });
    expect((await mapped.send({ url: 'https://hooks.example.com/in', ...post })).kind).toBe('refused');
  });

  it('refuses http and private literals outside the local cloud', async () => {
    const sender = webhookHttp({ allowLocalHttp: false });
    expect((await sender.send({ url: 'http://127.0.0.1:9/in', ...post })).kind).toBe('refused');
    expect((await sender.send({ url: 'https://10.0.0.1/in', ...post })).kind).toBe('refused');
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const r = await receiver(302, { location: 'http://169.254.169.254/' });
    try {
      expect(await webhookHttp({ allowLocalHttp: true }).send({ url: r.url, ...post })).toEqual({ kind: 'answered', status: 302 });
      expect(r.hits()).toBe(1);
    } finally {
      await r.close();
    }
  });

  it('reads a 2xx without taking the whole body, and gives up on a slow receiver at its timeout', async () => {
    const ok = await receiver(204);
    const slow = await receiver(200, {}, 2_000);
    try {
      expect(await webhookHttp({ allowLocalHttp: true }).send({ url: ok.url, ...post })).toEqual({ kind: 'answered', status: 204 });
      const started = Date.now();
      expect(await webhookHttp({ allowLocalHttp: true, timeoutMs: 300 }).send({ url: slow.url, ...post })).toEqual({ kind: 'unreachable', reason: 'no answer within 0.3 s' });
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await ok.close();
      await slow.close();
    }
  });
});

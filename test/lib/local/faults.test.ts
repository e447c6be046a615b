import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultControl, type DatabaseState } from '#lib/local/faults/control.ts';
import { awsErrorReply, checkPlan, dealDeck, deckSize, type FaultPlan, pickFault, startFaultProxy, type FaultProxy } from '#lib/local/faults/proxy.ts';
import { closeServer, listenAt } from '#lib/local/http-server.ts';

/** The fault proxies and their control (issue 16 point 1; docs/faults.md) against a service that counts its calls. */
let service: Server;
let serviceUrl: string;
let calls = 0;
const proxies: FaultProxy[] = [];

beforeAll(async () => {
  service = createServer((req, res) => {
    calls += 1;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, path: req.url }));
    });
  });
  serviceUrl = await listenAt(service, 0, '127.0.0.1');
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.stop();
  await closeServer(service);
});

const proxyWith = async (random = Math.random) => {
  const proxy = await startFaultProxy({ name: 'dynamodb', target: serviceUrl, errorReply: awsErrorReply('InternalServerError', 500), random });
  proxies.push(proxy);
  return proxy;
};

describe('a fault proxy', () => {
  it('forwards every call untouched without a plan', async () => {
    const proxy = await proxyWith();
    const before = calls;
    const res = await fetch(`${proxy.url}/a?b=1`, { method: 'POST', body: 'x' });
    expect(await res.json()).toEqual({ ok: true, path: '/a?b=1' });
    expect(calls).toBe(before + 1);
    expect(proxy.stats()).toEqual({ passed: 1, error: 0, drop: 0, slow: 0 });
  });

  it("answers the service's own error without reaching it, and drops connections without an answer", async () => {
    const proxy = await proxyWith();
    const before = calls;
    proxy.plan({ error: 1 });
    const res = await fetch(proxy.url, { method: 'POST', body: '{}' });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-amzn-errortype')).toBe('InternalServerError');
    expect(await res.json()).toMatchObject({ __type: 'InternalServerError' });
    proxy.plan({ drop: 1 });
    await expect(fetch(proxy.url)).rejects.toThrow();
    expect(calls).toBe(before);
    expect(proxy.stats()).toMatchObject({ error: 1, drop: 1, passed: 0 });
  });

  it('lets a slow call reach the service and holds its answer back past the caller’s timeout', async () => {
    const proxy = await proxyWith();
    const before = calls;
    proxy.plan({ slow: 1, slowMs: 400 });
    await expect(fetch(proxy.url, { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect(calls).toBe(before + 1);
    const started = performance.now();
    expect((await fetch(proxy.url)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
  });

  it('fails everything while down, and a plan with a period ends by itself', async () => {
    const proxy = await proxyWith();
    proxy.plan({ down: true, forMs: 200 });
    expect((await fetch(proxy.url)).status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(proxy.current()).toBeNull();
    expect((await fetch(proxy.url)).status).toBe(200);
  });

  it('picks faults by their shares, and refuses shares that make no sense', () => {
    const plan = { error: 0.3, drop: 0.1, slow: 0.1 };
    expect([0, 0.29, 0.3, 0.39, 0.4, 0.49, 0.5, 0.99].map((draw) => pickFault(plan, draw))).toEqual(['error', 'error', 'drop', 'drop', 'slow', 'slow', null, null]);
    expect(pickFault(null, 0)).toBeNull();
    expect(pickFault({ down: true }, 0.99)).toBe('error');
    expect(checkPlan(plan)).toBeNull();
    expect(checkPlan({ error: 0.8, slow: 0.3 })).toMatch(/must not exceed 1/);
    expect(checkPlan({ error: -1 })).toMatch(/between 0 and 1/);
    expect(checkPlan({ forMs: 0 })).toMatch(/positive/);
  });

  it("deals each plan's shares exactly over every deck of calls, so a short run cannot miss its faults by chance", async () => {
    expect(deckSize({ error: 0.3, slow: 0.1 })).toBe(10);
    expect(deckSize({ error: 0.15 })).toBe(20);
    expect(deckSize({ error: 0.15, slow: 0.03 })).toBe(100);
    expect(deckSize({ down: true })).toBe(1);
    const kinds = (draws: number[], plan: FaultPlan) => draws.map((draw) => pickFault(plan, draw) ?? 'passed').sort();
    const plan = { error: 0.3, slow: 0.1 };
    for (const random of [Math.random, () => 0, () => 0.999]) {
      expect(kinds(dealDeck(plan, random), plan)).toEqual([...Array(3).fill('error'), ...Array(6).fill('passed'), 'slow']);
    }
    // Through the proxy: 20 calls from the plan's start, two decks, 6 errors and 2 slow ones (held 50 ms) whatever the shuffle.
    const proxy = await proxyWith();
    proxy.plan({ ...plan, slowMs: 50 });
    for (let call = 0; call < 20; call++) await fetch(proxy.url, { method: 'POST', body: '{}' }).then((res) => res.text());
    expect(proxy.stats()).toEqual({ passed: 12, error: 6, drop: 0, slow: 2 });
  });
});

describe('the fault control', () => {
  it('sets, shows and clears plans, and drives the database', async () => {
    const proxy = await proxyWith();
    let state: DatabaseState = 'running';
    const actions: string[] = [];
    const act = (name: string, next: DatabaseState) => async () => void (actions.push(name), (state = next));
    const control = await startFaultControl({
      proxies: [proxy],
      database: { state: () => state, pause: act('pause', 'paused'), resume: act('resume', 'running'), kill: act('kill', 'killed'), restart: act('restart', 'running') },
    });
    try {
      const put = await fetch(`${control.url}/faults/dynamodb`, { method: 'PUT', body: JSON.stringify({ error: 0.3, slow: 0.1 }) });
      expect(put.status).toBe(200);
      expect(proxy.current()).toEqual({ error: 0.3, slow: 0.1 });
      expect(await (await fetch(`${control.url}/faults`)).json()).toMatchObject({ services: { dynamodb: { plan: { error: 0.3, slow: 0.1 } } }, dynamodb: 'running' });
      expect((await fetch(`${control.url}/faults/dynamodb`, { method: 'PUT', body: JSON.stringify({ error: 2 }) })).status).toBe(400);
      expect((await fetch(`${control.url}/faults/dynamodb`, { method: 'PUT', body: JSON.stringify({ eror: 0.1 }) })).status).toBe(400);
      expect((await fetch(`${control.url}/faults/dynamodb`, { method: 'PUT', body: 'not json' })).status).toBe(400);
      expect((await fetch(`${control.url}/faults/nope`, { method: 'PUT', body: '{}' })).status).toBe(404);
      expect((await fetch(`${control.url}/faults`, { method: 'DELETE' })).status).toBe(200);
      expect(proxy.current()).toBeNull();
      for (const action of ['pause', 'resume', 'kill', 'restart']) expect((await fetch(`${control.url}/dynamodb/${action}`, { method: 'POST' })).status).toBe(200);
      expect(actions).toEqual(['pause', 'resume', 'kill', 'restart']);
      expect((await fetch(`${control.url}/dynamodb/explode`, { method: 'POST' })).status).toBe(404);
    } finally {
      await control.stop();
    }
  });
});

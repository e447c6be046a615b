import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenAt } from '../http-server.ts';
import { checkPlan, type FaultPlan, type FaultProxy } from './proxy.ts';

/**
 * The test control of the faults (issue 16 point 1; docs/faults.md), on loopback, only when the local cloud was
 * started with faults on (`LOCAL_FAULTS=1`; outputs.json `FaultsUrl`):
 *   GET    /faults                 every service's plan and counts, and the database's state
 *   PUT    /faults/<service>       {error?, drop?, slow?, slowMs?, down?, forMs?}: that service's calls fail so
 *   DELETE /faults/<service>       back to normal; DELETE /faults: every service back to normal
 *   POST   /dynamodb/<action>      pause | resume | kill | restart: DynamoDB Local's process stopped (SIGSTOP) and
 *                                  continued, or killed (SIGKILL) and started again on its data
 */

export type DatabaseState = 'running' | 'paused' | 'killed';

export interface DatabaseControl {
  state(): DatabaseState;
  pause(): Promise<void>;
  resume(): Promise<void>;
  kill(): Promise<void>;
  restart(): Promise<void>;
}

export interface FaultControl {
  readonly url: string;
  stop(): Promise<void>;
}

const reply = (res: ServerResponse, status: number, body?: unknown) => {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
};

const PLAN_KEYS = new Set(['error', 'drop', 'slow', 'slowMs', 'down', 'forMs']);

export const startFaultControl = async (opts: { proxies: FaultProxy[]; database: DatabaseControl; port?: number }): Promise<FaultControl> => {
  const byName = new Map(opts.proxies.map((p) => [p.name, p]));
  const snapshot = () => ({
    services: Object.fromEntries(opts.proxies.map((p) => [p.name, { plan: p.current(), ...p.stats() }])),
    dynamodb: opts.database.state(),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const [, area, name, extra] = (req.url ?? '/').split('?')[0]!.split('/');
    if (area === 'faults' && extra === undefined) {
      if (req.method === 'GET' && !name) return reply(res, 200, snapshot());
      if (req.method === 'DELETE' && !name) {
        for (const proxy of opts.proxies) proxy.plan(null);
        return reply(res, 200, snapshot());
      }
      const proxy = name ? byName.get(name) : undefined;
      if (!proxy) return reply(res, 404, { error: `No such service: ${name ?? ''}. Known: ${[...byName.keys()].join(', ')}.` });
      if (req.method === 'DELETE') {
        proxy.plan(null);
        return reply(res, 200, snapshot());
      }
      if (req.method === 'PUT') {
        const plan = (await readJson(req).catch(() => null)) as FaultPlan | null;
        const problem =
          plan === null || typeof plan !== 'object' || Array.isArray(plan)
            ? 'the body is a JSON object'
            : Object.keys(plan).find((key) => !PLAN_KEYS.has(key))
              ? `unknown field (known: ${[...PLAN_KEYS].join(', ')})`
              : checkPlan(plan);
        if (problem) return reply(res, 400, { error: problem });
        proxy.plan(plan);
        return reply(res, 200, snapshot());
      }
    }
    if (area === 'dynamodb' && req.method === 'POST' && name && extra === undefined) {
      const actions: Record<string, () => Promise<void>> = {
        pause: () => opts.database.pause(),
        resume: () => opts.database.resume(),
        kill: () => opts.database.kill(),
        restart: () => opts.database.restart(),
      };
      const action = actions[name];
      if (!action) return reply(res, 404, { error: 'Actions: pause, resume, kill, restart.' });
      await action();
      return reply(res, 200, snapshot());
    }
    reply(res, 404, { error: 'See docs/faults.md for the fault control.' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => reply(res, 500, { error: (error as Error).message }));
  });
  const url = await listenAt(server, opts.port ?? 0, '127.0.0.1');
  return { url, stop: () => closeServer(server) };
};

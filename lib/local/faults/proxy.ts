import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenAt } from '../http-server.ts';

/**
 * A fault-injecting HTTP proxy in front of one local service (issue 16 point 1; docs/faults.md). With no plan it
 * forwards every request untouched. A plan makes a share of the calls fail as a dependency fails in the cloud:
 *   error  answered at once with the service's own 5xx error (nothing reaches the service);
 *   drop   the connection closed without an answer (nothing reaches the service);
 *   slow   forwarded (the service acts on it), its answer held back `slowMs`, past the client's timeout: the caller
 *          cannot tell whether it happened, which is what retries and idempotency keys must survive;
 * for a period (`forMs`) or until cleared; `down` fails every call (error) for the period. The shares are dealt, not
 * drawn call by call: each run of `deckSize(plan)` calls from the plan's start (10 for 30% and 10%) gets exactly its
 * shares, in a shuffled order. Independent draws could leave a short run with no fault at all (18 calls at 30% + 10%:
 * 1 run in 10,000), and a test that checks its faults happened would fail by chance.
 */
export interface FaultPlan {
  /** Shares of calls, 0..1 each, together at most 1. */
  error?: number;
  drop?: number;
  slow?: number;
  /** How long a slow answer is held back (default 15 s: past every client's request timeout). */
  slowMs?: number;
  /** Every call fails with the service's error while the plan lasts. */
  down?: boolean;
  /** The plan ends by itself after this long (default: until cleared). */
  forMs?: number;
}

export type FaultKind = 'error' | 'drop' | 'slow';

export interface FaultStats {
  passed: number;
  error: number;
  drop: number;
  slow: number;
}

/** The service's own error answer: what its SDK reads as a retryable server error. */
export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** AWS JSON and REST-JSON services: the error code in `x-amzn-errortype` and `__type` (every AWS SDK reads one). */
export const awsErrorReply = (code = 'ServiceUnavailableException', status = 503): ErrorReply => ({
  status,
  headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': code },
  body: JSON.stringify({ __type: code, message: 'Injected fault: the service is unavailable.' }),
});

/** AWS query/XML services (SES v1, S3): an XML error document. */
export const awsXmlErrorReply = (code = 'ServiceUnavailable', status = 503): ErrorReply => ({
  status,
  headers: { 'content-type': 'text/xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>Injected fault: the service is unavailable.</Message></Error>`,
});

/** Stripe's API error shape (the SDK retries a 500 when `maxNetworkRetries` allows). */
export const stripeErrorReply = (): ErrorReply => ({
  status: 500,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { type: 'api_error', message: 'Injected fault: Stripe is unavailable.' } }),
});

/** Google's JSON API error body (Calendar v3 and the token endpoint's callers read `error.code`). */
export const googleErrorReply = (): ErrorReply => ({
  status: 503,
  headers: { 'content-type': 'application/json; charset=UTF-8' },
  body: JSON.stringify({ error: { code: 503, message: 'Injected fault: the service is currently unavailable.', errors: [{ domain: 'global', reason: 'backendError', message: 'Backend Error' }], status: 'UNAVAILABLE' } }),
});

export interface FaultProxy {
  readonly name: string;
  readonly url: string;
  plan(plan: FaultPlan | null): void;
  current(): FaultPlan | null;
  stats(): FaultStats;
  stop(): Promise<void>;
}

const DEFAULT_SLOW_MS = 15_000;

/** Which fault (if any) a call gets under `plan`, from one uniform draw. */
export const pickFault = (plan: FaultPlan | null, draw: number): FaultKind | null => {
  if (!plan) return null;
  if (plan.down) return 'error';
  let edge = 0;
  for (const kind of ['error', 'drop', 'slow'] as const) {
    edge += plan[kind] ?? 0;
    if (draw < edge) return kind;
  }
  return null;
};

/** The fewest calls (at most 100) in which each of the plan's shares is a whole number of calls. */
export const deckSize = (plan: FaultPlan): number => {
  const shares = (['error', 'drop', 'slow'] as const).map((kind) => plan[kind] ?? 0);
  for (let size = 1; size < 100; size++) if (shares.every((share) => Math.abs(share * size - Math.round(share * size)) < 1e-9)) return size;
  return 100;
};

/**
 * A deck of draws for `plan`, shuffled with `random`: `deckSize(plan)` evenly spaced draws, so exactly each share of
 * them falls in its fault's band of `pickFault`.
 */
export const dealDeck = (plan: FaultPlan, random: () => number): number[] => {
  const size = deckSize(plan);
  const draws = Array.from({ length: size }, (_, i) => (i + 0.5) / size);
  for (let i = size - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [draws[i], draws[j]] = [draws[j]!, draws[i]!];
  }
  return draws;
};

/** Checks a plan a test control received (shares in 0..1 adding up to at most 1, positive times). */
export const checkPlan = (plan: FaultPlan): string | null => {
  const shares = (['error', 'drop', 'slow'] as const).map((kind) => plan[kind] ?? 0);
  if (shares.some((share) => typeof share !== 'number' || !(share >= 0 && share <= 1))) return 'error, drop and slow are shares between 0 and 1';
  if (shares.reduce((a, b) => a + b, 0) > 1) return 'error + drop + slow must not exceed 1';
  for (const time of [plan.slowMs, plan.forMs]) if (time !== undefined && !(typeof time === 'number' && time > 0)) return 'slowMs and forMs are positive milliseconds';
  return null;
};

export const startFaultProxy = async (opts: {
  name: string;
  target: string;
  errorReply: ErrorReply;
  port?: number;
  /** What shuffles each deck of the plan's draws (default Math.random). */
  random?: () => number;
}): Promise<FaultProxy> => {
  const target = new URL(opts.target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const random = opts.random ?? Math.random;
  const stats: FaultStats = { passed: 0, error: 0, drop: 0, slow: 0 };
  let active: { plan: FaultPlan; until: number } | null = null;
  /** The draws left of the active plan's current deck (dealt again when empty, and for each new plan). */
  let deck: number[] = [];
  const draw = (plan: FaultPlan): number => {
    if (deck.length === 0) deck = dealDeck(plan, random);
    return deck.pop()!;
  };
  const held = new Set<NodeJS.Timeout>();

  const current = (): FaultPlan | null => {
    if (active && Date.now() >= active.until) active = null;
    return active?.plan ?? null;
  };

  const forward = (req: IncomingMessage, res: ServerResponse, holdMs: number) => {
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent },
      (answer) => {
        const send = () => {
          if (res.destroyed) return void answer.resume();
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (holdMs <= 0) return send();
        // The body is read now (the service has answered); only the caller waits.
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const timer = setTimeout(() => {
            held.delete(timer);
            if (res.destroyed) return;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          }, holdMs);
          held.add(timer);
        });
      },
    );
    upstream.on('error', () => {
      // The service itself is gone (killed, restarting): the caller sees the connection fail, as it would.
      res.destroy();
    });
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    const plan = current();
    const fault = plan ? pickFault(plan, draw(plan)) : null;
    if (fault === null) {
      stats.passed += 1;
      return forward(req, res, 0);
    }
    stats[fault] += 1;
    if (fault === 'error') {
      req.resume();
      res.writeHead(opts.errorReply.status, opts.errorReply.headers);
      return void res.end(opts.errorReply.body);
    }
    if (fault === 'drop') {
      req.resume();
      return void req.socket.destroy();
    }
    forward(req, res, plan?.slowMs ?? DEFAULT_SLOW_MS);
  });
  server.keepAliveTimeout = 5_000;
  const url = await listenAt(server, opts.port ?? 0, '127.0.0.1');

  return {
    name: opts.name,
    url,
    plan(plan) {
      active = plan ? { plan, until: plan.forMs ? Date.now() + plan.forMs : Infinity } : null;
      deck = [];
    },
    current,
    stats: () => ({ ...stats }),
    async stop() {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      await closeServer(server);
      agent.destroy();
    },
  };
};

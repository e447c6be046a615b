import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../http-replies.ts';
import { closeServer, listen } from '../http-server.ts';

type StartSes = (config: { host?: string; port?: number }) => Promise<Server>;

/**
 * What GetAccount answers locally: a production account whose send rate, 50 messages a second, paces the campaign
 * sender as a real one would without slowing local campaigns down. Its SendQuota is the stand-in's own (below): the
 * rate and the 24-hour quota a test sets, and the messages sent since (issue 28).
 */
export const localSesAccount = {
  DedicatedIpAutoWarmupEnabled: false,
  Details: {
    AdditionalContactEmailAddresses: [],
    ContactLanguage: 'EN',
    MailType: 'MARKETING',
    ReviewDetails: { CaseId: 'local', Status: 'GRANTED' },
    UseCaseDescription: 'Course Platform local cloud',
    WebsiteURL: 'http://127.0.0.1',
  },
  EnforcementStatus: 'HEALTHY',
  ProductionAccessEnabled: true,
  SendingEnabled: true,
  SendQuota: { Max24HourSend: 1_000_000, MaxSendRate: 50, SentLast24Hours: 0 },
  SuppressionAttributes: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
};

/** The stand-in's account and throttle, as a test sets them (`PUT /_stand-in/account`, `PUT /_stand-in/throttle`). */
interface SesState {
  maxSendRate: number;
  max24HourSend: number;
  /** Messages sent in the rolling 24 hours: every accepted destination adds one; a test sets it (a new day: 0). */
  sentLast24Hours: number;
  /** Each destination is throttled (`ACCOUNT_THROTTLED`, not sent) with this chance, on at most `times` of its sends. */
  throttle: { share: number; times: number };
  /** Destinations throttled so far (what a test reads back). */
  throttled: number;
}

const fresh = (): SesState => ({ maxSendRate: localSesAccount.SendQuota.MaxSendRate, max24HourSend: localSesAccount.SendQuota.Max24HourSend, sentLast24Hours: 0, throttle: { share: 0, times: 0 }, throttled: 0 });

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });

/**
 * aws-ses-v2-local in this process (it is a small express app): SES v2 SendEmail/SendBulkEmail, sent mail kept in
 * memory, a viewer at `/` and `GET /store` for tests; behind a front of our own that keeps the account's quota
 * (GetAccount's SendQuota; a SendBulkEmail destination past Max24HourSend is `ACCOUNT_DAILY_QUOTA_EXCEEDED`, a
 * SendEmail past it 400 `LimitExceededException`, as SES answers), and throttles destinations when a test asks, so that
 * the campaign sender's pacing, quota and retries are tested against the wire protocol. Controls: `PUT
 * /_stand-in/account` `{MaxSendRate?, Max24HourSend?, SentLast24Hours?}`, `PUT /_stand-in/throttle` `{share, times}`,
 * `DELETE /_stand-in` (back to the defaults).
 */
export const startSes = async (opts: { port: number }): Promise<{ url: string; stop(): Promise<void> }> => {
  const mod = (await import('aws-ses-v2-local')) as unknown as { default: StartSes | { default: StartSes } };
  const start = typeof mod.default === 'function' ? mod.default : mod.default.default;
  const inner = await start({ host: '127.0.0.1', port: 0 });
  const innerUrl = `http://127.0.0.1:${(inner.address() as AddressInfo).port}`;
  let state = fresh();
  const throttledTimes = new Map<string, number>();

  const forward = async (method: string, path: string, headers: Record<string, string>, body: string | undefined) => {
    const res = await fetch(`${innerUrl}${path}`, { method, headers, ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}) });
    return { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? 'application/json' };
  };

  const throttled = (to: string): boolean => {
    const { share, times } = state.throttle;
    if (share <= 0 || (throttledTimes.get(to) ?? 0) >= times || Math.random() >= share) return false;
    throttledTimes.set(to, (throttledTimes.get(to) ?? 0) + 1);
    state.throttled += 1;
    return true;
  };

  const sendBulk = async (headers: Record<string, string>, raw: string) => {
    const input = JSON.parse(raw) as { BulkEmailEntries?: { Destination?: { ToAddresses?: string[] } }[] };
    const entries = input.BulkEmailEntries ?? [];
    const outcome: ({ Status: string; Error: string } | undefined)[] = entries.map((entry) => {
      const to = entry.Destination?.ToAddresses?.[0] ?? '';
      if (state.sentLast24Hours >= state.max24HourSend) return { Status: 'ACCOUNT_DAILY_QUOTA_EXCEEDED', Error: 'Daily message quota exceeded.' };
      if (throttled(to)) return { Status: 'ACCOUNT_THROTTLED', Error: 'Maximum sending rate exceeded.' };
      state.sentLast24Hours += 1;
      return undefined;
    });
    const passed = entries.filter((_, i) => outcome[i] === undefined);
    let results: unknown[] = [];
    if (passed.length > 0) {
      const res = await forward('POST', '/v2/email/outbound-bulk-emails', headers, JSON.stringify({ ...input, BulkEmailEntries: passed }));
      if (res.status !== 200) return res;
      results = (JSON.parse(res.body) as { BulkEmailEntryResults?: unknown[] }).BulkEmailEntryResults ?? [];
    }
    let next = 0;
    return json(200, { BulkEmailEntryResults: outcome.map((o) => o ?? results[next++]) });
  };

  const front = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = req.url ?? '/';
      // The caller's headers as they came (aws-ses-v2-local wants the SDK's authorization), but for the ones fetch sets.
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([name, value]) => typeof value === 'string' && !['host', 'content-length', 'connection', 'transfer-encoding'].includes(name))
          .map(([name, value]) => [name, String(value)]),
      );
      let answer: { status: number; body: string; type?: string };
      if (path === '/_stand-in/account' && req.method === 'PUT') {
        const body = JSON.parse(raw || '{}') as { MaxSendRate?: number; Max24HourSend?: number; SentLast24Hours?: number };
        state = {
          ...state,
          ...(body.MaxSendRate !== undefined ? { maxSendRate: body.MaxSendRate } : {}),
          ...(body.Max24HourSend !== undefined ? { max24HourSend: body.Max24HourSend } : {}),
          ...(body.SentLast24Hours !== undefined ? { sentLast24Hours: body.SentLast24Hours } : {}),
        };
        answer = json(200, state);
      } else if (path === '/_stand-in/throttle' && req.method === 'PUT') {
        const body = JSON.parse(raw || '{}') as { share?: number; times?: number };
        state = { ...state, throttle: { share: body.share ?? 0, times: body.times ?? 1 } };
        throttledTimes.clear();
        answer = json(200, state);
      } else if (path === '/_stand-in' && req.method === 'DELETE') {
        state = fresh();
        throttledTimes.clear();
        answer = json(200, state);
      } else if (path === '/v2/email/account' && req.method === 'GET') {
        answer = json(200, { ...localSesAccount, SendQuota: { Max24HourSend: state.max24HourSend, MaxSendRate: state.maxSendRate, SentLast24Hours: state.sentLast24Hours } });
      } else if (path === '/v2/email/outbound-bulk-emails' && req.method === 'POST') {
        answer = await sendBulk(headers, raw);
      } else if (path === '/v2/email/outbound-emails' && req.method === 'POST' && state.sentLast24Hours >= state.max24HourSend) {
        answer = json(400, { __type: 'LimitExceededException', message: 'Daily message quota exceeded.' });
      } else {
        if (path === '/v2/email/outbound-emails' && req.method === 'POST') state.sentLast24Hours += 1;
        answer = await forward(req.method ?? 'GET', path, headers, raw);
      }
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' });
      res.end(answer.body);
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(error) }));
    });
  });
  await listen(front, opts.port, 'SES_PORT');
  return {
    url: `http://127.0.0.1:${opts.port}`,
    stop: async () => {
      await closeServer(front);
      await closeServer(inner);
    },
  };
};

import { randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ErrorReply } from '../faults/proxy.ts';
import { escapeHtml, jsonReplies, noContent, readBody, sendHtml } from '../http-replies.ts';
import { listenAt } from '../http-server.ts';

/**
 * The local Zoom (issue 30, decision 0041): Zoom's Server-to-Server OAuth token endpoint and the part of the REST API
 * v2 the platform uses, on one port, speaking Zoom's wire format (field names, numeric meeting ids, error bodies).
 *
 * - `POST /oauth/token` with HTTP Basic `client_id:client_secret`, `grant_type=account_credentials` and `account_id`
 *   (query string or form body, both as Zoom accepts): `{access_token, token_type: "bearer", expires_in, scope,
 *   api_url}`. Refusals as Zoom answers them: 400 `{reason, error}` (`invalid_client` for a wrong client id or
 *   secret, `invalid_request` for a wrong or missing account id, `unsupported_grant_type`).
 * - `/v2` with `Authorization: Bearer <token>`: `GET /users/me`, `POST /users/me/meetings`, `GET /users/me/meetings`,
 *   `GET/PATCH/DELETE /meetings/{meetingId}`. An unknown or expired token: 401 `{code: 124, message}`; a meeting that
 *   does not exist: 404 `{code: 3001, message: "Meeting does not exist: <id>."}`; a bad body: 400 `{code: 300}`.
 * - `GET /`: a viewer page listing the meetings made (like the mail viewer).
 * - Test controls (not Zoom's API) under `/_stand-in/`: `GET meetings` (JSON), `GET stats` (tokens issued, calls),
 *   `POST token-lifetime {"seconds": 61}` (the `expires_in` of the next tokens), `POST expire-tokens` (every token
 *   issued so far is refused from now on, as after Zoom's expiry), `POST reset` (no meetings, no tokens).
 *
 * One account with one Server-to-Server OAuth app: the demo credentials published in .local/outputs.json.
 */
export interface ZoomCredentials {
  accountId: string;
  clientId: string;
  clientSecret: string;
}

/** The demo app's credentials (outputs.json `ZoomAccountId`, `ZoomClientId`, `ZoomClientSecret`): fixed, for demos. */
export const demoZoomCredentials: ZoomCredentials = {
  accountId: 'demoZoomAccount01',
  clientId: 'demoZoomClientId',
  clientSecret: 'demo-zoom-client-secret-0123456789',
};

/** A meeting as Zoom keeps it (the fields of `GET /v2/meetings/{id}` the platform reads, and a few more). */
export interface ZoomMeeting {
  uuid: string;
  id: number;
  host_id: string;
  host_email: string;
  topic: string;
  type: number;
  status: 'waiting';
  start_time: string;
  duration: number;
  timezone: string;
  agenda: string;
  created_at: string;
  start_url: string;
  join_url: string;
  password: string;
}

export interface ZoomStandInOptions {
  port: number;
  host?: string;
  credentials?: ZoomCredentials;
  /** `expires_in` of the tokens issued (Zoom's is 3600 s). */
  tokenLifetimeSeconds?: number;
  /** Where the meetings are kept across restarts (like the Stripe stand-in's state); in memory only without it. */
  stateFile?: string;
  log?: (line: string) => void;
}

export interface ZoomStandIn {
  url: string;
  /** Zoom's REST API base (`<url>/v2`): outputs.json `ZoomApiUrl`. */
  apiUrl: string;
  /** Where `/oauth/token` is: outputs.json `ZoomOAuthUrl`. */
  oauthUrl: string;
  credentials: ZoomCredentials;
  meetings(): ZoomMeeting[];
  stop(): Promise<void>;
}

/** What the fault proxy answers for Zoom while it is "down": Zoom's own error shape with a 503. */
export const zoomErrorReply = (): ErrorReply => ({
  status: 503,
  headers: { 'content-type': 'application/json;charset=UTF-8' },
  body: JSON.stringify({ code: 503, message: 'Injected fault: Zoom is unavailable.' }),
});

const HOST_ID = 'z8yCxjabcdefghij0123AB';
const HOST_EMAIL = 'demo.host@zoom.local';
const SCOPE = 'meeting:read:admin meeting:write:admin user:read:admin';

const sendJson = jsonReplies({ contentType: 'application/json;charset=UTF-8' });

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Zoom answers times in UTC without milliseconds: "2026-12-01T10:00:00Z". */
const zoomTime = (value: string | Date): string => new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What a create or update may set, checked as Zoom does (code 300 for an invalid field). */
const meetingFields = (body: Record<string, unknown>, creating: boolean): { error: string } | Partial<ZoomMeeting> => {
  const fields: Partial<ZoomMeeting> = {};
  if (body.topic !== undefined) {
    if (typeof body.topic !== 'string' || body.topic.length > 200) return { error: 'Invalid field: topic (at most 200 characters).' };
    fields.topic = body.topic;
  }
  if (body.type !== undefined) {
    if (![1, 2, 3, 8].includes(body.type as number)) return { error: 'Invalid field: type.' };
    fields.type = body.type as number;
  }
  if (body.start_time !== undefined) {
    if (typeof body.start_time !== 'string' || Number.isNaN(Date.parse(body.start_time))) return { error: 'Invalid field: start_time.' };
    fields.start_time = zoomTime(body.start_time);
  }
  if (body.duration !== undefined) {
    if (!Number.isInteger(body.duration) || (body.duration as number) < 1) return { error: 'Invalid field: duration.' };
    fields.duration = body.duration as number;
  }
  if (body.timezone !== undefined) {
    if (typeof body.timezone !== 'string') return { error: 'Invalid field: timezone.' };
    fields.timezone = body.timezone;
  }
  if (body.agenda !== undefined) {
    if (typeof body.agenda !== 'string' || body.agenda.length > 2000) return { error: 'Invalid field: agenda (at most 2000 characters).' };
    fields.agenda = body.agenda;
  }
  if (creating && (fields.type ?? 2) === 2 && fields.start_time === undefined) return { error: 'Invalid field: start_time is required for a scheduled meeting.' };
  return fields;
};

export const startZoomStandIn = async (options: ZoomStandInOptions): Promise<ZoomStandIn> => {
  const host = options.host ?? '127.0.0.1';
  const credentials = options.credentials ?? demoZoomCredentials;
  const log = options.log ?? (() => undefined);
  let lifetime = options.tokenLifetimeSeconds ?? 3600;
  /** Tokens issued: access token -> epoch ms it expires at. */
  const tokens = new Map<string, number>();
  const stats = { tokensIssued: 0, tokenRefusals: 0, apiCalls: 0, unauthorized: 0 };

  let meetings: ZoomMeeting[] = [];
  if (options.stateFile && existsSync(options.stateFile)) {
    try {
      meetings = (JSON.parse(readFileSync(options.stateFile, 'utf8')) as { meetings: ZoomMeeting[] }).meetings;
    } catch (error) {
      log(`[zoom] ${options.stateFile} is unreadable (${(error as Error).message}): starting with no meetings`);
    }
  }
  const save = () => {
    if (!options.stateFile) return;
    writeFileSync(`${options.stateFile}.tmp`, JSON.stringify({ meetings }));
    renameSync(`${options.stateFile}.tmp`, options.stateFile);
  };

  let baseUrl = '';

  const param = (url: URL, form: URLSearchParams, name: string): string | null => url.searchParams.get(name) ?? form.get(name);

  const issueToken = (req: IncomingMessage, res: ServerResponse, url: URL, raw: string): void => {
    const form = new URLSearchParams((req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded') ? raw : '');
    const refuse = (reason: string, error: string) => {
      stats.tokenRefusals += 1;
      sendJson(res, 400, { reason, error });
    };
    const grant = param(url, form, 'grant_type');
    if (!grant) return refuse('Missing grant type', 'invalid_request');
    if (grant !== 'account_credentials') return refuse('Unsupported grant type', 'unsupported_grant_type');
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const decoded = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (!basic || colon < 0) return refuse('Client ID or client secret is missing', 'invalid_request');
    const [clientId, clientSecret] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    if (!sameText(clientId, credentials.clientId) || !sameText(clientSecret, credentials.clientSecret)) {
      return refuse('Invalid client_id or client_secret', 'invalid_client');
    }
    const accountId = param(url, form, 'account_id');
    if (!accountId) return refuse('Missing account_id', 'invalid_request');
    if (!sameText(accountId, credentials.accountId)) return refuse('Invalid account_id', 'invalid_request');
    const accessToken = `zst_${randomBytes(24).toString('base64url')}`;
    tokens.set(accessToken, Date.now() + lifetime * 1000);
    stats.tokensIssued += 1;
    sendJson(res, 200, { access_token: accessToken, token_type: 'bearer', expires_in: lifetime, scope: SCOPE, api_url: baseUrl });
  };

  const authorized = (req: IncomingMessage, res: ServerResponse): boolean => {
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const expiresAt = bearer ? tokens.get(bearer[1]!) : undefined;
    if (expiresAt !== undefined && expiresAt > Date.now()) return true;
    stats.unauthorized += 1;
    sendJson(res, 401, { code: 124, message: expiresAt === undefined ? 'Invalid access token.' : 'Access token is expired.' });
    return false;
  };

  const notFound = (res: ServerResponse, id: string) => sendJson(res, 404, { code: 3001, message: `Meeting does not exist: ${id}.` });

  const parseBody = (raw: string): Record<string, unknown> | undefined => {
    try {
      const body: unknown = raw.trim() ? JSON.parse(raw) : {};
      return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };

  const newMeetingId = (): number => {
    for (;;) {
      const id = randomInt(10_000_000, 99_999_999) * 1000 + randomInt(0, 1000);
      if (!meetings.some((m) => m.id === id)) return id;
    }
  };

  const api = (req: IncomingMessage, res: ServerResponse, path: string, url: URL, raw: string): void => {
    stats.apiCalls += 1;
    if (!authorized(req, res)) return;
    if (req.method === 'GET' && path === '/users/me') {
      return sendJson(res, 200, {
        id: HOST_ID,
        first_name: 'Demo',
        last_name: 'Host',
        display_name: 'Demo Host',
        email: HOST_EMAIL,
        type: 2,
        account_id: credentials.accountId,
        timezone: 'Europe/London',
        status: 'active',
      });
    }
    if (path === '/users/me/meetings' && req.method === 'POST') {
      const body = parseBody(raw);
      if (!body) return sendJson(res, 400, { code: 300, message: 'Request Body should be a valid JSON object.' });
      const fields = meetingFields(body, true);
      if ('error' in fields) return sendJson(res, 400, { code: 300, message: fields.error });
      const id = newMeetingId();
      const password = randomBytes(4).toString('hex').slice(0, 6);
      const meeting: ZoomMeeting = {
        uuid: randomBytes(16).toString('base64'),
        id,
        host_id: HOST_ID,
        host_email: HOST_EMAIL,
        topic: fields.topic ?? 'Zoom meeting',
        type: fields.type ?? 2,
        status: 'waiting',
        start_time: fields.start_time ?? zoomTime(new Date()),
        duration: fields.duration ?? 60,
        timezone: fields.timezone ?? 'Europe/London',
        agenda: fields.agenda ?? '',
        created_at: zoomTime(new Date()),
        start_url: `${baseUrl}/s/${id}?zak=${randomUUID()}`,
        join_url: `${baseUrl}/j/${id}?pwd=${password}`,
        password,
      };
      meetings.push(meeting);
      save();
      log(`[zoom] meeting ${id} created: ${meeting.topic}`);
      return sendJson(res, 201, meeting);
    }
    if (path === '/users/me/meetings' && req.method === 'GET') {
      const type = url.searchParams.get('type') ?? 'scheduled';
      const pageSize = Math.min(300, Math.max(1, Number(url.searchParams.get('page_size') ?? 30) || 30));
      const offset = Number(url.searchParams.get('next_page_token') || 0) || 0;
      const now = Date.now();
      const listed = meetings.filter((m) => type !== 'upcoming' || Date.parse(m.start_time) + m.duration * 60_000 > now);
      const page = listed.slice(offset, offset + pageSize);
      return sendJson(res, 200, {
        page_size: pageSize,
        total_records: listed.length,
        next_page_token: offset + pageSize < listed.length ? String(offset + pageSize) : '',
        // As Zoom's list: no start_url, no password.
        meetings: page.map(({ uuid, id, host_id, topic, type: kind, start_time, duration, timezone, agenda, created_at, join_url }) => ({
          uuid, id, host_id, topic, type: kind, start_time, duration, timezone, agenda, created_at, join_url,
        })),
      });
    }
    const match = /^\/meetings\/([^/]+)$/.exec(path);
    if (match) {
      const id = decodeURIComponent(match[1]!);
      const meeting = meetings.find((m) => String(m.id) === id);
      if (!/^\d+$/.test(id) || !meeting) return notFound(res, id);
      if (req.method === 'GET') return sendJson(res, 200, meeting);
      if (req.method === 'PATCH') {
        const body = parseBody(raw);
        if (!body) return sendJson(res, 400, { code: 300, message: 'Request Body should be a valid JSON object.' });
        const fields = meetingFields(body, false);
        if ('error' in fields) return sendJson(res, 400, { code: 300, message: fields.error });
        Object.assign(meeting, fields);
        save();
        log(`[zoom] meeting ${id} updated`);
        return noContent(res);
      }
      if (req.method === 'DELETE') {
        meetings = meetings.filter((m) => m !== meeting);
        save();
        log(`[zoom] meeting ${id} deleted`);
        return noContent(res);
      }
    }
    sendJson(res, 404, { code: 404, message: `The local Zoom stand-in does not implement ${req.method} /v2${path}.` });
  };

  const viewer = (res: ServerResponse): void => {
    const rows = [...meetings]
      .reverse()
      .map(
        (m) =>
          `<tr><td>${m.id}</td><td>${escapeHtml(m.topic)}</td><td>${escapeHtml(m.start_time)}</td><td>${m.duration} min</td>` +
          `<td>${escapeHtml(m.timezone)}</td><td>${escapeHtml(m.agenda)}</td><td><a href="${escapeHtml(m.join_url)}">join</a></td></tr>`,
      )
      .join('\n');
    const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Local Zoom: meetings</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#111}table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:.4rem .6rem;text-align:left;vertical-align:top}th{background:#f3f4f6}</style></head>
<body><h1>Local Zoom stand-in</h1><p>Account <code>${escapeHtml(credentials.accountId)}</code>: ${meetings.length} meeting(s); ${stats.tokensIssued} token(s) issued.</p>
${meetings.length === 0 ? '<p>No meetings yet.</p>' : `<table><thead><tr><th>Id</th><th>Topic</th><th>Start (UTC)</th><th>Duration</th><th>Time zone</th><th>Agenda</th><th>Link</th></tr></thead><tbody>${rows}</tbody></table>`}
</body></html>`;
    sendHtml(res, 200, html);
  };

  const control = (req: IncomingMessage, res: ServerResponse, path: string, raw: string): void => {
    if (req.method === 'GET' && path === '/_stand-in/meetings') return sendJson(res, 200, { meetings });
    if (req.method === 'GET' && path === '/_stand-in/stats') return sendJson(res, 200, { ...stats, tokenLifetimeSeconds: lifetime });
    if (req.method === 'POST' && path === '/_stand-in/token-lifetime') {
      const seconds = (parseBody(raw) ?? {}).seconds;
      if (!Number.isInteger(seconds) || (seconds as number) < 1) return sendJson(res, 400, { message: 'Body must be JSON: {"seconds": 61}' });
      lifetime = seconds as number;
      return sendJson(res, 200, { tokenLifetimeSeconds: lifetime });
    }
    if (req.method === 'POST' && path === '/_stand-in/expire-tokens') {
      for (const token of tokens.keys()) tokens.set(token, 0);
      return sendJson(res, 200, { expired: tokens.size });
    }
    if (req.method === 'POST' && path === '/_stand-in/reset') {
      meetings = [];
      tokens.clear();
      Object.assign(stats, { tokensIssued: 0, tokenRefusals: 0, apiCalls: 0, unauthorized: 0 });
      lifetime = options.tokenLifetimeSeconds ?? 3600;
      save();
      return sendJson(res, 200, { ok: true });
    }
    sendJson(res, 404, { message: `No such control: ${req.method} ${path}` });
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://zoom.local');
    const path = url.pathname;
    if (req.method === 'POST' && path === '/oauth/token') return issueToken(req, res, url, raw);
    if (path.startsWith('/v2/')) return api(req, res, path.slice('/v2'.length), url, raw);
    if (path.startsWith('/_stand-in/')) return control(req, res, path, raw);
    if (req.method === 'GET' && path === '/') return viewer(res);
    sendJson(res, 404, { code: 404, message: `The local Zoom stand-in does not implement ${req.method} ${path}.` });
  };

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      log(`[zoom] ${req.method} ${req.url} failed: ${(error as Error)?.stack ?? String(error)}`);
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { code: 500, message: 'The stand-in failed to handle this request.' });
    });
  });
  baseUrl = await listenAt(server, options.port, host);

  return {
    url: baseUrl,
    apiUrl: `${baseUrl}/v2`,
    oauthUrl: baseUrl,
    credentials,
    meetings: () => meetings,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
};

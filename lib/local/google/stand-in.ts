import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { escapeHtml, jsonReplies, noContent, readBody, sendHtml } from '../http-replies.ts';
import { closeServer, listenAt } from '../http-server.ts';

/**
 * The local Google (issue 30, decision 0047): the parts of Google's OAuth 2.0 and Calendar v3 the platform's adapter
 * calls through the official `@googleapis/calendar` client and `google-auth-library`, on one port:
 *
 * - `GET /o/oauth2/v2/auth?client_id&redirect_uri&response_type=code&scope&access_type=offline&prompt=consent&state`:
 *   the consent screen (the demo Google account, the scopes asked for, **Allow** and **Cancel**). Allow redirects to
 *   `redirect_uri?code=...&scope=...&state=...`, Cancel to `redirect_uri?error=access_denied&state=...`. An unknown
 *   client is Google's "Error 401: invalid_client" page; a redirect URI other than loopback http is
 *   "Error 400: redirect_uri_mismatch".
 * - `POST /token` (form body; client id and secret in the body or HTTP Basic): `authorization_code` (single use, 10
 *   minutes, same redirect_uri) and `refresh_token` grants answer `{access_token, expires_in, refresh_token?, scope,
 *   token_type: "Bearer"}`; an unknown client or wrong secret `401 {error: "invalid_client", error_description:
 *   "Unauthorized"}`, a bad code `400 {error: "invalid_grant", error_description: "Bad Request"}`, a revoked or unknown
 *   refresh token `400 {error: "invalid_grant", error_description: "Token has been expired or revoked."}`.
 * - `POST /revoke?token=`: revokes a refresh token (and the access tokens it gave) or an access token.
 * - Calendar v3 under `/calendar/v3` (Bearer access token; 401 `authError` when unknown or expired):
 *   `GET /calendars/{calendarId}`, `POST /calendars/{calendarId}/events[?conferenceDataVersion=1]` (client-chosen `id`:
 *   base32hex, 5-1024 characters, 409 `duplicate` when taken, even by a deleted event), `GET/PATCH/DELETE
 *   /calendars/{calendarId}/events/{eventId}` (a deleted event reads as `status: "cancelled"`; PATCH and DELETE of it
 *   are 410 `deleted`), `conferenceData.createRequest` answered with a Meet link (`hangoutLink`, `entryPoints`). An
 *   unknown calendar is 404 `notFound`. Errors in Google's body `{error: {code, message, errors: [{domain, reason,
 *   message}], status}}`.
 * - `GET /`: a viewer of the events made, like the mail viewer.
 * - Test controls (not Google's API) under `/_stand-in/`: `POST /_stand-in/token-lifetime {seconds}`,
 *   `POST /_stand-in/expire-tokens` (every access token given so far is refused from now on), `GET /_stand-in/state`
 *   (events, grants counted), `POST /_stand-in/reset`.
 */

/** The platform's OAuth client at the stand-in (published in outputs.json; the secret in the secrets stand-in). */
export const GOOGLE_DEMO_CLIENT_ID = 'local-course-platform.apps.googleusercontent.com';
export const GOOGLE_DEMO_CLIENT_SECRET = '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';
/** The Google account the consent screen signs in as, and its calendars ('primary' is the account's own). */
export const GOOGLE_DEMO_ACCOUNT = 'demo.creator@gmail.example';
export const GOOGLE_DEMO_CALENDARS = ['primary', GOOGLE_DEMO_ACCOUNT, 'live-sessions@group.calendar.google.example'];

export interface GoogleStandInOptions {
  port: number;
  host?: string;
  /** Seconds an access token lives (Google's 3599 by default). */
  tokenLifetimeSeconds?: number;
  /** Keeps the refresh tokens and events across restarts (a refresh token stored by the platform stays valid). */
  stateFile?: string;
  clients?: Record<string, string>;
}

interface StoredEvent {
  calendarId: string;
  event: Record<string, unknown> & { id: string; status: string; sequence: number };
  deleted: boolean;
}

interface GoogleState {
  /** refresh token -> grant */
  refreshTokens: Record<string, { clientId: string; scope: string; revoked: boolean }>;
  events: StoredEvent[];
}

export interface GoogleStandIn {
  url: string;
  /** The consent screen's URL (Google's https://accounts.google.com/o/oauth2/v2/auth). */
  consentUrl: string;
  /** The token endpoint (Google's https://oauth2.googleapis.com/token). */
  tokenUrl: string;
  /** Calendar v3's base (Google's https://www.googleapis.com/calendar/v3). */
  calendarApiUrl: string;
  stop(): Promise<void>;
}

const sendJson = jsonReplies({ contentType: 'application/json; charset=UTF-8', indent: 2, headers: () => ({ 'Cache-Control': 'no-store' }) });

const statusNames: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS', 410: 'NOT_FOUND' };

/** Google's JSON API error body. */
const apiError = (res: ServerResponse, code: number, reason: string, message: string, extra: Record<string, string> = {}): void =>
  sendJson(res, code, { error: { code, message, errors: [{ domain: 'global', reason, message, ...extra }], ...(statusNames[code] ? { status: statusNames[code] } : {}) } });

const BASE32HEX = /^[a-v0-9]{5,1024}$/;

const page = (title: string, body: string): string => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f0f4f9;color:#1f1f1f}
main{max-width:30rem;margin:3rem auto;background:#fff;border-radius:28px;padding:2rem 2.25rem}
h1{font-size:1.5rem;font-weight:400;margin:.5rem 0 1rem}.brand{font-weight:600;color:#1a73e8}
.account{display:inline-block;border:1px solid #c4c7c5;border-radius:999px;padding:.25rem .75rem;font-size:.9rem}
ul{padding-left:1.25rem}li{margin:.4rem 0}.actions{display:flex;gap:1rem;justify-content:flex-end;margin-top:2rem}
button{font:inherit;border-radius:999px;padding:.6rem 1.5rem;cursor:pointer;border:1px solid #747775;background:#fff;color:#0b57d0}
button.primary{background:#0b57d0;border-color:#0b57d0;color:#fff}button:focus-visible{outline:3px solid #a8c7fa;outline-offset:2px}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
@media (max-width:480px){main{margin:0;border-radius:0;padding:1.5rem 1.25rem}}
</style></head><body>${body}</body></html>`;

const scopeWords: Record<string, string> = {
  'https://www.googleapis.com/auth/calendar.events': 'View and edit events on all your calendars',
  'https://www.googleapis.com/auth/calendar': 'See, edit, share, and permanently delete all the calendars you can access using Google Calendar',
  'https://www.googleapis.com/auth/calendar.readonly': 'See and download any calendar you can access using your Google Calendar',
};

const isLoopbackRedirect = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
};

const withQuery = (base: string, params: Record<string, string | undefined>): string => {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
};

export const startGoogleStandIn = async (options: GoogleStandInOptions): Promise<GoogleStandIn> => {
  const clients = options.clients ?? { [GOOGLE_DEMO_CLIENT_ID]: GOOGLE_DEMO_CLIENT_SECRET };
  let lifetime = options.tokenLifetimeSeconds ?? 3599;
  const load = (): GoogleState => {
    if (options.stateFile && existsSync(options.stateFile)) {
      try {
        return JSON.parse(readFileSync(options.stateFile, 'utf8')) as GoogleState;
      } catch {
        // A damaged file starts afresh.
      }
    }
    return { refreshTokens: {}, events: [] };
  };
  let state = load();
  const save = () => {
    if (options.stateFile) writeFileSync(options.stateFile, JSON.stringify(state));
  };
  /** code -> its grant (single use, 10 minutes). */
  const codes = new Map<string, { clientId: string; redirectUri: string; scope: string; expiresAt: number }>();
  /** access token -> its refresh token and expiry. */
  const accessTokens = new Map<string, { refreshToken: string; expiresAt: number }>();
  let grants = { authorizationCode: 0, refreshToken: 0 };

  const issueAccess = (refreshToken: string, scope: string) => {
    const accessToken = `ya29.local-${randomBytes(24).toString('base64url')}`;
    accessTokens.set(accessToken, { refreshToken, expiresAt: Date.now() + lifetime * 1000 });
    return { access_token: accessToken, expires_in: lifetime, scope, token_type: 'Bearer' };
  };

  const consent = (res: ServerResponse, url: URL, origin: string): void => {
    const q = Object.fromEntries(url.searchParams);
    const clientId = q['client_id'] ?? '';
    if (!clients[clientId]) {
      return sendHtml(res, 401, page('Access blocked', `<main><p class="brand">Google</p><h1>Access blocked: Authorization Error</h1><p>The OAuth client was not found.</p><p>Error 401: invalid_client</p></main>`));
    }
    const redirectUri = q['redirect_uri'] ?? '';
    if (!isLoopbackRedirect(redirectUri)) {
      return sendHtml(res, 400, page('Access blocked', `<main><p class="brand">Google</p><h1>Access blocked: This app's request is invalid</h1><p>Error 400: redirect_uri_mismatch</p></main>`));
    }
    if (q['response_type'] !== 'code' || !q['scope']) {
      return sendHtml(res, 400, page('Access blocked', `<main><p class="brand">Google</p><h1>Access blocked: This app's request is invalid</h1><p>Error 400: invalid_request (response_type=code and scope are required)</p></main>`));
    }
    const scopes = q['scope'].split(/\s+/).filter(Boolean);
    const hidden = ['client_id', 'redirect_uri', 'scope', 'state', 'access_type']
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(q[name] ?? '')}">`)
      .join('');
    sendHtml(
      res,
      200,
      page(
        'Sign in - Google Accounts',
        `<main><p class="brand">Google</p><h1>Course Platform wants to access your Google Account</h1>
<p><span class="account">${escapeHtml(GOOGLE_DEMO_ACCOUNT)}</span></p>
<p>This will allow Course Platform to:</p>
<ul>${scopes.map((s) => `<li>${escapeHtml(scopeWords[s] ?? s)}</li>`).join('')}</ul>
<p>Make sure you trust Course Platform. You can remove its access at any time in your Google Account.</p>
<form method="post" action="${escapeHtml(origin)}/o/oauth2/v2/auth/decision">${hidden}
<div class="actions"><button type="submit" name="decision" value="deny">Cancel</button><button class="primary" type="submit" name="decision" value="allow">Allow</button></div>
</form></main>`,
      ),
    );
  };

  const decision = (res: ServerResponse, form: URLSearchParams): void => {
    const clientId = form.get('client_id') ?? '';
    const redirectUri = form.get('redirect_uri') ?? '';
    if (!clients[clientId] || !isLoopbackRedirect(redirectUri)) return sendHtml(res, 400, page('Error', '<main><h1>Error 400: invalid_request</h1></main>'));
    const stateParam = form.get('state') ?? undefined;
    if (form.get('decision') !== 'allow') {
      res.writeHead(302, { Location: withQuery(redirectUri, { error: 'access_denied', state: stateParam }) });
      return void res.end();
    }
    const code = `4/0local-${randomBytes(24).toString('base64url')}`;
    const scope = form.get('scope') ?? '';
    codes.set(code, { clientId, redirectUri, scope, expiresAt: Date.now() + 10 * 60_000 });
    res.writeHead(302, { Location: withQuery(redirectUri, { state: stateParam, code, scope }) });
    res.end();
  };

  const token = (req: IncomingMessage, res: ServerResponse, form: URLSearchParams): void => {
    let clientId = form.get('client_id') ?? '';
    let clientSecret = form.get('client_secret') ?? '';
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) [clientId = '', clientSecret = ''] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    if (!clients[clientId] || clients[clientId] !== clientSecret) return sendJson(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const grant = codes.get(code);
      codes.delete(code);
      if (!grant || grant.clientId !== clientId || grant.redirectUri !== form.get('redirect_uri') || grant.expiresAt < Date.now()) {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      }
      const refreshToken = `1//0local-${randomBytes(32).toString('base64url')}`;
      state.refreshTokens[refreshToken] = { clientId, scope: grant.scope, revoked: false };
      save();
      grants.authorizationCode += 1;
      return sendJson(res, 200, { ...issueAccess(refreshToken, grant.scope), refresh_token: refreshToken });
    }
    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token') ?? '';
      const grant = state.refreshTokens[refreshToken];
      if (!grant || grant.revoked || grant.clientId !== clientId) {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      }
      grants.refreshToken += 1;
      return sendJson(res, 200, issueAccess(refreshToken, grant.scope));
    }
    sendJson(res, 400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grantType ?? ''}` });
  };

  const revoke = (res: ServerResponse, tokenValue: string): void => {
    const access = accessTokens.get(tokenValue);
    const refreshToken = access ? access.refreshToken : tokenValue;
    const grant = state.refreshTokens[refreshToken];
    if (!grant && !access) return sendJson(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
    if (grant) grant.revoked = true;
    for (const [key, value] of accessTokens) if (value.refreshToken === refreshToken) accessTokens.delete(key);
    save();
    sendJson(res, 200, {});
  };

  const calendar = async (req: IncomingMessage, res: ServerResponse, url: URL, origin: string): Promise<void> => {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const access = bearer ? accessTokens.get(bearer) : undefined;
    if (!access || access.expiresAt <= Date.now() || state.refreshTokens[access.refreshToken]?.revoked) {
      return apiError(
        res,
        401,
        'authError',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        { location: 'Authorization', locationType: 'header' },
      );
    }
    const parts = url.pathname.replace(/^\/calendar\/v3\/calendars\//, '').split('/').map(decodeURIComponent);
    const [calendarId = '', collection, eventId, ...rest] = parts;
    if (!GOOGLE_DEMO_CALENDARS.includes(calendarId)) return apiError(res, 404, 'notFound', 'Not Found');
    // 'primary' and the account's address name the same calendar.
    const canonicalId = calendarId === 'primary' ? GOOGLE_DEMO_ACCOUNT : calendarId;
    if (collection === undefined && req.method === 'GET') {
      return sendJson(res, 200, { kind: 'calendar#calendar', etag: '"local"', id: canonicalId, summary: canonicalId === GOOGLE_DEMO_ACCOUNT ? GOOGLE_DEMO_ACCOUNT : 'Live sessions', timeZone: 'Europe/London' });
    }
    if (collection !== 'events' || rest.length > 0) return apiError(res, 404, 'notFound', 'Not Found');
    const find = (id: string) => state.events.find((e) => e.calendarId === canonicalId && e.event.id === id);
    const body = req.method === 'POST' || req.method === 'PATCH' || req.method === 'PUT' ? await readBody(req) : '';
    let input: Record<string, unknown> = {};
    if (body) {
      try {
        input = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return apiError(res, 400, 'parseError', 'Parse Error');
      }
    }
    const withConference = url.searchParams.get('conferenceDataVersion') === '1';
    const now = new Date().toISOString();

    if (eventId === undefined && req.method === 'POST') {
      const id = typeof input['id'] === 'string' ? input['id'] : randomBytes(13).toString('hex').replace(/[^a-v0-9]/g, 'a');
      if (!BASE32HEX.test(id)) return apiError(res, 400, 'invalid', 'Invalid resource id value.');
      if (find(id)) return apiError(res, 409, 'duplicate', 'The requested identifier already exists.');
      const start = input['start'] as { dateTime?: string } | undefined;
      const end = input['end'] as { dateTime?: string } | undefined;
      if (!start?.dateTime || !end?.dateTime) return apiError(res, 400, 'required', 'Missing end time.');
      if (Date.parse(end.dateTime) < Date.parse(start.dateTime)) return apiError(res, 400, 'timeRangeEmpty', 'The specified time range is empty.');
      const event: StoredEvent['event'] = {
        kind: 'calendar#event',
        etag: `"${Date.now()}"`,
        id,
        status: 'confirmed',
        htmlLink: `${origin}/#event-${id}`,
        created: now,
        updated: now,
        summary: input['summary'] ?? '',
        description: input['description'] ?? '',
        creator: { email: GOOGLE_DEMO_ACCOUNT, self: true },
        organizer: { email: canonicalId, self: true },
        start: input['start'],
        end: input['end'],
        iCalUID: `${id}@google.com`,
        sequence: 0,
        reminders: { useDefault: true },
        eventType: 'default',
      };
      const request = (input['conferenceData'] as { createRequest?: { requestId?: string; conferenceSolutionKey?: { type?: string } } } | undefined)?.createRequest;
      if (withConference && request) {
        const code = [3, 4, 3].map((n) => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('')).join('-');
        const uri = `https://meet.google.com/${code}`;
        event['hangoutLink'] = uri;
        event['conferenceData'] = {
          createRequest: { requestId: request.requestId ?? randomUUID(), conferenceSolutionKey: { type: 'hangoutsMeet' }, status: { statusCode: 'success' } },
          entryPoints: [{ entryPointType: 'video', uri, label: uri.replace('https://', '') }],
          conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet' },
          conferenceId: code,
        };
      }
      state.events.push({ calendarId: canonicalId, event, deleted: false });
      save();
      return sendJson(res, 200, event);
    }
    if (eventId === undefined) return apiError(res, 404, 'notFound', 'Not Found');
    const stored = find(eventId);
    if (!stored) return apiError(res, 404, 'notFound', 'Not Found');
    if (req.method === 'GET') return sendJson(res, 200, stored.event);
    if (stored.deleted) return apiError(res, 410, 'deleted', 'Resource has been deleted');
    if (req.method === 'PATCH') {
      for (const key of ['summary', 'description', 'start', 'end', 'location'] as const) if (key in input) stored.event[key] = input[key];
      stored.event.sequence += 1;
      stored.event['updated'] = now;
      stored.event['etag'] = `"${Date.now()}"`;
      save();
      return sendJson(res, 200, stored.event);
    }
    if (req.method === 'DELETE') {
      stored.deleted = true;
      stored.event.status = 'cancelled';
      stored.event['updated'] = now;
      save();
      return noContent(res);
    }
    apiError(res, 405, 'httpMethodNotAllowed', 'Method Not Allowed');
  };

  const viewer = (res: ServerResponse): void => {
    const rows = state.events
      .slice()
      .reverse()
      .map(({ calendarId, event, deleted }) => {
        const start = (event['start'] as { dateTime?: string } | undefined)?.dateTime ?? '';
        const link = typeof event['hangoutLink'] === 'string' ? `<a href="${escapeHtml(event['hangoutLink'])}">${escapeHtml(event['hangoutLink'])}</a>` : '';
        return `<tr id="event-${escapeHtml(event.id)}"><td>${escapeHtml(String(event['summary'] ?? ''))}</td><td>${escapeHtml(start)}</td><td>${escapeHtml(calendarId)}</td><td>${deleted ? 'cancelled' : 'confirmed'} (sequence ${event.sequence})</td><td>${link}</td><td><code>${escapeHtml(event.id)}</code></td></tr>`;
      })
      .join('');
    const consented = Object.values(state.refreshTokens).filter((g) => !g.revoked).length;
    sendHtml(
      res,
      200,
      page(
        'Google Calendar stand-in',
        `<main style="max-width:70rem"><p class="brand">Google Calendar (local stand-in)</p><h1>Events made</h1>
<p>${consented} live consent(s); account ${escapeHtml(GOOGLE_DEMO_ACCOUNT)}.</p>
${rows ? `<table><thead><tr><th>Title</th><th>Starts</th><th>Calendar</th><th>Status</th><th>Meet link</th><th>Event id</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No events yet.</p>'}</main>`,
      ),
    );
  };

  const control = async (req: IncomingMessage, res: ServerResponse, action: string): Promise<void> => {
    if (req.method === 'GET' && action === 'state') return sendJson(res, 200, { ...state, grants, tokenLifetimeSeconds: lifetime });
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST' });
    const body = await readBody(req);
    if (action === 'token-lifetime') {
      const seconds = Number((JSON.parse(body || '{}') as { seconds?: unknown }).seconds);
      if (!Number.isInteger(seconds) || seconds < 1) return sendJson(res, 400, { error: 'seconds: a positive integer' });
      lifetime = seconds;
      return sendJson(res, 200, { tokenLifetimeSeconds: lifetime });
    }
    if (action === 'expire-tokens') {
      for (const value of accessTokens.values()) value.expiresAt = 0;
      return sendJson(res, 200, {});
    }
    if (action === 'reset') {
      state = { refreshTokens: {}, events: [] };
      codes.clear();
      accessTokens.clear();
      grants = { authorizationCode: 0, refreshToken: 0 };
      lifetime = options.tokenLifetimeSeconds ?? 3599;
      save();
      return sendJson(res, 200, {});
    }
    sendJson(res, 404, { error: `No such control: ${action}` });
  };

  let origin = '';
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    if (path === '/o/oauth2/v2/auth' && req.method === 'GET') return consent(res, url, origin);
    if (path === '/o/oauth2/v2/auth/decision' && req.method === 'POST') return decision(res, new URLSearchParams(await readBody(req)));
    if (path === '/token' && req.method === 'POST') return token(req, res, new URLSearchParams(await readBody(req)));
    if (path === '/revoke' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      return revoke(res, url.searchParams.get('token') ?? form.get('token') ?? '');
    }
    if (path.startsWith('/calendar/v3/calendars/')) return calendar(req, res, url, origin);
    if (path.startsWith('/_stand-in/')) return control(req, res, path.slice('/_stand-in/'.length));
    if (path === '/' && req.method === 'GET') return viewer(res);
    apiError(res, 404, 'notFound', 'Not Found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) apiError(res, 500, 'backendError', `Backend Error: ${(error as Error).message}`);
      else res.end();
    });
  });
  origin = await listenAt(server, options.port, options.host ?? '127.0.0.1');
  return {
    url: origin,
    consentUrl: `${origin}/o/oauth2/v2/auth`,
    tokenUrl: `${origin}/token`,
    calendarApiUrl: `${origin}/calendar/v3`,
    stop: () => closeServer(server),
  };
};

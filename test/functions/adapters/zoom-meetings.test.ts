import { describe, expect, it } from 'vitest';
import { TokenCache } from '#adapters/token-cache.ts';
import { sessionMarker, zoomMeetingsWith } from '#adapters/zoom-meetings.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingDetails } from '#core/live-sessions/ports.ts';

/** A fake Zoom: answers by method and path, records every call. */
const fakeZoom = (routes: Record<string, (init: RequestInit, url: URL) => Response | Promise<Response>>) => {
  const calls: { method: string; path: string; auth: string }[] = [];
  const fetchFn = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    calls.push({ method, path: url.pathname, auth: new Headers(init.headers).get('authorization') ?? '' });
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) return json(404, { code: 404, message: 'not here' });
    return handler(init, url);
  }) as typeof fetch;
  return { fetchFn, calls };
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const credentials = { provider: 'zoom' as const, accountId: 'acct', clientId: 'client', clientSecret: 'secret' };
const details: MeetingDetails = {
  sessionId: '01JSESSION',
  title: 'Week 1 Q&A',
  description: 'Bring questions.',
  startsAt: '2026-12-01T10:00:00.000Z',
  durationMinutes: 45,
  timeZone: 'Europe/London',
};

let tokenCount = 0;
const tokenRoute = () => () => json(200, { access_token: `t${++tokenCount}`, token_type: 'bearer', expires_in: 3600, scope: 'meeting:write:admin' });

const provider = (fetchFn: typeof fetch, extra: { cache?: TokenCache; timeoutMs?: number; now?: () => number } = {}) =>
  zoomMeetingsWith({ apiUrl: 'https://api.zoom.test/v2', oauthUrl: 'https://zoom.test', fetch: fetchFn, cache: extra.cache ?? new TokenCache(), ...extra })('creator-1', credentials);

describe('the Zoom adapter', () => {
  it('asks for a token once and reuses it until it expires, with Basic client id:secret and the account id', async () => {
    let now = 0;
    let tokenUrl = '';
    let basic = '';
    const zoom = fakeZoom({
      'POST /oauth/token': (init, url) => {
        tokenUrl = url.search;
        basic = new Headers(init.headers).get('authorization') ?? '';
        return json(200, { access_token: `tok-${now}`, token_type: 'bearer', expires_in: 3600, scope: 's' });
      },
      'GET /v2/users/me': () => json(200, { id: 'u', email: 'host@example.com' }),
    });
    const zoomProvider = provider(zoom.fetchFn, { now: () => now, cache: new TokenCache(10, () => now) });
    await zoomProvider.check();
    await zoomProvider.check();
    expect(zoom.calls.filter((c) => c.path === '/oauth/token')).toHaveLength(1);
    expect(tokenUrl).toBe('?grant_type=account_credentials&account_id=acct');
    expect(Buffer.from(basic.replace('Basic ', ''), 'base64').toString()).toBe('client:secret');
    expect(zoom.calls.filter((c) => c.path === '/v2/users/me').map((c) => c.auth)).toEqual(['Bearer tok-0', 'Bearer tok-0']);
    now = 3_600_000;
    await zoomProvider.check();
    expect(zoom.calls.filter((c) => c.path === '/oauth/token')).toHaveLength(2);
    expect(zoom.calls.at(-1)!.auth).toBe('Bearer tok-3600000');
  });

  it('retries a 401 once with a fresh token', async () => {
    let refusals = 0;
    const zoom = fakeZoom({
      'POST /oauth/token': tokenRoute(),
      'GET /v2/users/me': () => (refusals++ === 0 ? json(401, { code: 124, message: 'Access token is expired.' }) : json(200, { id: 'u' })),
    });
    await provider(zoom.fetchFn).check();
    const apiCalls = zoom.calls.filter((c) => c.path === '/v2/users/me');
    expect(apiCalls).toHaveLength(2);
    expect(apiCalls[0]!.auth).not.toBe(apiCalls[1]!.auth);
  });

  it('gives up after the second 401: the app is refused in plain words', async () => {
    const zoom = fakeZoom({ 'POST /oauth/token': tokenRoute(), 'GET /v2/users/me': () => json(401, { code: 124, message: 'Invalid access token.' }) });
    const error = await provider(zoom.fetchFn).check().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntegrationNotConnectedError);
    expect((error as Error).message).toContain('Invalid access token.');
    expect(zoom.calls.filter((c) => c.path === '/v2/users/me')).toHaveLength(2);
  });

  it('says which credential Zoom refused, with Zoom’s reason', async () => {
    const refusedWith = async (body: unknown) => {
      const zoom = fakeZoom({ 'POST /oauth/token': () => json(400, body) });
      return provider(zoom.fetchFn).check().catch((e: unknown) => e);
    };
    const secret = await refusedWith({ reason: 'Invalid client_id or client_secret', error: 'invalid_client' });
    expect(secret).toBeInstanceOf(IntegrationNotConnectedError);
    expect((secret as Error).message).toBe(
      'Zoom refused the API Key or API Secret ("Invalid client_id or client_secret"): check the Client ID and Client Secret of your Server-to-Server OAuth app.',
    );
    const account = await refusedWith({ reason: 'Invalid account_id', error: 'invalid_request' });
    expect((account as Error).message).toContain('Zoom refused the Account ID ("Invalid account_id")');
  });

  it('is unavailable, naming Zoom, when a call times out, fails on the network or gets a 5xx', async () => {
    const hanging = fakeZoom({
      'POST /oauth/token': (init) =>
        new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error))),
    });
    const timedOut = await provider(hanging.fetchFn, { timeoutMs: 30 }).check().catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(ProviderUnavailableError);
    expect((timedOut as Error).message).toBe('Zoom did not answer within 0.03 s (token).');

    const down = fakeZoom({ 'POST /oauth/token': () => Promise.reject(new TypeError('fetch failed')) });
    expect(await provider(down.fetchFn).check().catch((e: unknown) => e)).toBeInstanceOf(ProviderUnavailableError);

    const failing = fakeZoom({ 'POST /oauth/token': tokenRoute(), 'POST /v2/users/me/meetings': () => json(503, { code: 503, message: 'down' }) });
    const error = await provider(failing.fetchFn).createMeeting(details).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).provider).toBe('zoom');
  });

  it('creates a scheduled meeting in Zoom’s fields, marked with the session id, and adopts it on retry', async () => {
    const made: Record<string, unknown>[] = [];
    const zoom = fakeZoom({
      'POST /oauth/token': tokenRoute(),
      'POST /v2/users/me/meetings': (init) => {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        made.push(body);
        return json(201, { id: 81234567890, join_url: 'https://zoom.test/j/81234567890', start_url: 'https://zoom.test/s/81234567890', ...body });
      },
      'GET /v2/users/me/meetings': () => json(200, { meetings: made.map((m) => ({ id: 81234567890, agenda: m.agenda })), next_page_token: '' }),
      'GET /v2/meetings/81234567890': () => json(200, { id: 81234567890, join_url: 'https://zoom.test/j/81234567890', start_url: 'https://zoom.test/s/81234567890' }),
    });
    const zoomProvider = provider(zoom.fetchFn);
    expect(await zoomProvider.findMeeting(details.sessionId)).toBeUndefined();
    const meeting = await zoomProvider.createMeeting(details);
    expect(meeting).toEqual({ meetingId: '81234567890', joinUrl: 'https://zoom.test/j/81234567890', hostUrl: 'https://zoom.test/s/81234567890' });
    expect(made[0]).toEqual({
      topic: 'Week 1 Q&A',
      type: 2,
      start_time: '2026-12-01T10:00:00Z',
      duration: 45,
      timezone: 'Europe/London',
      agenda: `Bring questions.\n\n${sessionMarker('01JSESSION')}`,
    });
    expect(await zoomProvider.findMeeting(details.sessionId)).toEqual(meeting);
    expect(await zoomProvider.findMeeting('01JOTHER')).toBeUndefined();
  });

  it('treats a meeting Zoom no longer has as gone on update and as deleted on delete', async () => {
    const missing = () => json(404, { code: 3001, message: 'Meeting does not exist: 1.' });
    const zoom = fakeZoom({ 'POST /oauth/token': tokenRoute(), 'PATCH /v2/meetings/1': missing, 'DELETE /v2/meetings/1': missing, 'PATCH /v2/meetings/2': () => new Response(null, { status: 204 }) });
    const zoomProvider = provider(zoom.fetchFn);
    expect(await zoomProvider.updateMeeting('1', details)).toBe('gone');
    await expect(zoomProvider.deleteMeeting('1')).resolves.toBeUndefined();
    expect(await zoomProvider.updateMeeting('2', details)).toBe('updated');
  });
});

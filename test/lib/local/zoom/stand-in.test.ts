import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoZoomCredentials, startZoomStandIn, type ZoomStandIn } from '#lib/local/zoom/stand-in.ts';

/** The Zoom stand-in speaks Zoom's wire format: its token endpoint's refusals, its API's errors and fields. */
let zoom: ZoomStandIn;
let dir: string;

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const token = (query: string, authorization?: string, init: RequestInit = {}) =>
  fetch(`${zoom.oauthUrl}/oauth/token${query}`, { method: 'POST', ...init, headers: { ...(authorization ? { authorization } : {}), ...(init.headers ?? {}) } });
const demoAuth = basic(demoZoomCredentials.clientId, demoZoomCredentials.clientSecret);
const accountQuery = `?grant_type=account_credentials&account_id=${demoZoomCredentials.accountId}`;
const accessToken = async () => ((await (await token(accountQuery, demoAuth)).json()) as { access_token: string }).access_token;
const call = async (method: string, path: string, bearer: string, body?: unknown) => {
  const res = await fetch(`${zoom.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>) };
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zoom-stand-in-'));
  zoom = await startZoomStandIn({ port: 0, stateFile: join(dir, 'zoom.json') });
});
afterAll(async () => {
  await zoom?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Zoom stand-in', () => {
  it('gives the demo app a bearer token as Zoom does, from the query string or a form body', async () => {
    const res = await token(accountQuery, demoAuth);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: expect.stringContaining('meeting:write:admin'), api_url: zoom.url });
    const form = await token('', demoAuth, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=account_credentials&account_id=${demoZoomCredentials.accountId}`,
    });
    expect(form.status).toBe(200);
  });

  it('refuses wrong credentials with Zoom’s reasons', async () => {
    const refusal = async (query: string, authorization?: string) => {
      const res = await token(query, authorization);
      return { status: res.status, body: await res.json() };
    };
    expect(await refusal(accountQuery, basic(demoZoomCredentials.clientId, 'wrong'))).toEqual({ status: 400, body: { reason: 'Invalid client_id or client_secret', error: 'invalid_client' } });
    expect(await refusal(accountQuery, basic('someone', demoZoomCredentials.clientSecret))).toEqual({ status: 400, body: { reason: 'Invalid client_id or client_secret', error: 'invalid_client' } });
    expect(await refusal('?grant_type=account_credentials&account_id=other', demoAuth)).toEqual({ status: 400, body: { reason: 'Invalid account_id', error: 'invalid_request' } });
    expect((await refusal('?grant_type=client_credentials', demoAuth)).body).toEqual({ reason: 'Unsupported grant type', error: 'unsupported_grant_type' });
    expect((await refusal(accountQuery)).body).toMatchObject({ error: 'invalid_request' });
  });

  it('answers an unknown or expired token with 401 code 124', async () => {
    expect(await call('GET', '/users/me', 'made-up')).toEqual({ status: 401, body: { code: 124, message: 'Invalid access token.' } });
    const bearer = await accessToken();
    expect((await call('GET', '/users/me', bearer)).body).toMatchObject({ account_id: demoZoomCredentials.accountId, type: 2 });
    await fetch(`${zoom.url}/_stand-in/expire-tokens`, { method: 'POST' });
    expect(await call('GET', '/users/me', bearer)).toEqual({ status: 401, body: { code: 124, message: 'Access token is expired.' } });
  });

  it('makes, lists, changes and deletes a scheduled meeting in Zoom’s fields, with 404 code 3001 once gone', async () => {
    const bearer = await accessToken();
    const made = await call('POST', '/users/me/meetings', bearer, {
      topic: 'Office hours',
      type: 2,
      start_time: '2030-01-02T10:00:00.000Z',
      duration: 30,
      timezone: 'Europe/London',
      agenda: 'Session id: S1',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ topic: 'Office hours', type: 2, start_time: '2030-01-02T10:00:00Z', duration: 30, agenda: 'Session id: S1' });
    const id = made.body!['id'] as number;
    expect(typeof id).toBe('number');
    expect(made.body!['join_url']).toContain(`/j/${id}`);
    const listed = await call('GET', '/users/me/meetings?type=upcoming', bearer);
    expect(listed.body!['meetings']).toEqual([expect.objectContaining({ id, agenda: 'Session id: S1' })]);
    expect(JSON.stringify(listed.body)).not.toContain('start_url');
    expect((await call('PATCH', `/meetings/${id}`, bearer, { duration: 45 })).status).toBe(204);
    expect((await call('GET', `/meetings/${id}`, bearer)).body).toMatchObject({ duration: 45, topic: 'Office hours' });
    expect((await call('POST', '/users/me/meetings', bearer, { topic: 'No time', type: 2 })).body).toMatchObject({ code: 300 });
    expect((await call('DELETE', `/meetings/${id}`, bearer)).status).toBe(204);
    expect(await call('GET', `/meetings/${id}`, bearer)).toEqual({ status: 404, body: { code: 3001, message: `Meeting does not exist: ${id}.` } });
    expect((await fetch(`${zoom.url}/`)).headers.get('content-type')).toContain('text/html');
  });

  it('keeps its meetings across a restart', async () => {
    const bearer = await accessToken();
    const made = await call('POST', '/users/me/meetings', bearer, { topic: 'Kept', type: 2, start_time: '2030-01-03T10:00:00Z', duration: 60 });
    await zoom.stop();
    zoom = await startZoomStandIn({ port: 0, stateFile: join(dir, 'zoom.json') });
    expect(zoom.meetings().map((m) => m.id)).toContain(made.body!['id']);
  });
});

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { forgetSecrets } from '#adapters/secrets.ts';
import {
  eventIdOf,
  googleCalendarMeetingsWith,
  googleClientSettings,
  googleConsentWith,
  type GoogleClientSettings,
} from '#adapters/google-calendar-meetings.ts';
import { TokenCache } from '#adapters/token-cache.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingDetails } from '#core/live-sessions/ports.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { integrationKeys } from '#data/integrations.ts';
import { accountWithRole, api, dynamo, outputs, useLocalCloudEnv } from './support.ts';

/**
 * The Google adapter against the local cloud's Google stand-in (issue 30, decision 0047), through its fault proxy as
 * the functions reach it: the official client and OAuth2Client speaking Google's wire protocol.
 */
let settings: GoogleClientSettings;

const standIn = () => new URL(outputs().GoogleOAuthUrl).origin;
const control = (action: string, body?: unknown) =>
  fetch(`${standIn()}/_stand-in/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
const standInState = async () =>
  (await (await fetch(`${standIn()}/_stand-in/state`)).json()) as {
    events: { calendarId: string; deleted: boolean; event: { id: string; summary: string; sequence: number; hangoutLink?: string } }[];
    grants: { authorizationCode: number; refreshToken: number };
  };
const faults = (service: string, plan: unknown) =>
  fetch(`${outputs().FaultsUrl}/faults/${service}`, plan === null ? { method: 'DELETE' } : { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(plan) });

/** The creator presses Allow on the consent screen: the code the redirect carries. */
const allow = async (consentUrl: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> => {
  const page = await fetch(consentUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('>Allow</button>');
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(name!, value!.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c))));
  form.set('decision', decision);
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const res = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
};

const consentedRefreshToken = async (): Promise<string> => {
  const consent = googleConsentWith(settings);
  const back = await allow(consent.consentUrl('state-1'));
  expect(back.searchParams.get('state')).toBe('state-1');
  return (await consent.exchangeCode(back.searchParams.get('code')!)).refreshToken;
};

const session = (sessionId: string, title = 'Cohort kick-off'): MeetingDetails => ({
  sessionId,
  title,
  description: 'Bring questions.',
  startsAt: '2030-03-01T17:00:00.000Z',
  durationMinutes: 60,
  timeZone: 'Europe/London',
});

let counter = 0;
const sessionId = () => `01JSESSION${Date.now()}${++counter}`;

beforeAll(async () => {
  useLocalCloudEnv();
  forgetSecrets();
  settings = await googleClientSettings();
});

afterEach(async () => {
  await faults('google', null);
  await control('token-lifetime', { seconds: 3599 });
});

describe('Google Calendar through the creator consent', () => {
  it('shows the consent screen with the account and the calendar scope, and Cancel comes back with access_denied', async () => {
    const url = googleConsentWith(settings).consentUrl('s-42');
    expect(url.startsWith(outputs().GoogleOAuthUrl)).toBe(true);
    const query = new URL(url).searchParams;
    expect(Object.fromEntries(query)).toMatchObject({ access_type: 'offline', prompt: 'consent', response_type: 'code', client_id: outputs().GoogleOAuthClientId, state: 's-42' });
    const html = await (await fetch(url)).text();
    expect(html).toContain('demo.creator@gmail.example');
    expect(html).toContain('View and edit events on all your calendars');
    const back = await allow(url, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('exchanges the code once for a refresh token; the same code again is refused in words', async () => {
    const consent = googleConsentWith(settings);
    const code = (await allow(consent.consentUrl('x'))).searchParams.get('code')!;
    expect((await consent.exchangeCode(code)).refreshToken).toMatch(/^1\/\//);
    const again = await consent.exchangeCode(code).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(IntegrationNotConnectedError);
    expect((again as Error).message).toBe('Google refused access: connect Google Calendar again.');
  });

  it('checks the calendar, creates an event with a Meet link, adopts it on a repeat, updates and deletes it', async () => {
    const refreshToken = await consentedRefreshToken();
    const google = googleCalendarMeetingsWith('creator-a', { provider: 'google', refreshToken, calendarId: 'primary' }, settings, new TokenCache());
    await google.check();

    const id = sessionId();
    const made = await google.createMeeting(session(id));
    expect(made.meetingId).toBe(eventIdOf(id));
    expect(made.joinUrl).toMatch(/^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    expect(made.hostUrl).toBe(made.joinUrl);
    // A retry (its first answer lost, or the save after it failed) names the same event: adopted, not doubled.
    const again = await google.createMeeting(session(id, 'Cohort kick-off (moved)'));
    expect(again).toEqual(made);
    expect(await google.findMeeting(id)).toEqual(made);
    let events = (await standInState()).events.filter((e) => e.event.id === made.meetingId);
    expect(events).toHaveLength(1);
    expect(events[0]!.event.summary).toBe('Cohort kick-off (moved)');

    expect(await google.updateMeeting(made.meetingId, session(id, 'Week 1'))).toBe('updated');
    events = (await standInState()).events.filter((e) => e.event.id === made.meetingId);
    expect(events[0]!.event).toMatchObject({ summary: 'Week 1', sequence: 2 });

    await google.deleteMeeting(made.meetingId);
    expect((await standInState()).events.find((e) => e.event.id === made.meetingId)?.deleted).toBe(true);
    // Google answers 410 for a deleted event: deleting again counts as deleted, changing it says gone.
    await expect(google.deleteMeeting(made.meetingId)).resolves.toBeUndefined();
    expect(await google.updateMeeting(made.meetingId, session(id))).toBe('gone');
    expect(await google.findMeeting(id)).toBeUndefined();
  });

  it('refuses a wrong client secret, a revoked consent and an unknown calendar in words', async () => {
    const refreshToken = await consentedRefreshToken();
    const wrongSecret = googleCalendarMeetingsWith('creator-b', { provider: 'google', refreshToken, calendarId: 'primary' }, { ...settings, clientSecret: 'GOCSPX-wrong' }, new TokenCache());
    await expect(wrongSecret.check()).rejects.toThrow(/Google refused the platform’s OAuth client/);
    await expect(wrongSecret.check()).rejects.toBeInstanceOf(IntegrationNotConnectedError);

    const unknownCalendar = googleCalendarMeetingsWith('creator-b', { provider: 'google', refreshToken, calendarId: 'nobody@example.com' }, settings, new TokenCache());
    await expect(unknownCalendar.check()).rejects.toThrow('Google Calendar has no calendar with this Calendar ID: check the Calendar ID (or use "primary").');

    await fetch(`${standIn()}/revoke?token=${encodeURIComponent(refreshToken)}`, { method: 'POST' });
    const revoked = googleCalendarMeetingsWith('creator-b', { provider: 'google', refreshToken, calendarId: 'primary' }, settings, new TokenCache());
    const refused = await revoked.check().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IntegrationNotConnectedError);
    expect(refused).toMatchObject({ code: 'INTEGRATION_NOT_CONNECTED', message: 'Google refused access: connect Google Calendar again.', details: { provider: 'google' } });
  });

  it('asks for a new token once the cached one has expired, and once more after a 401', async () => {
    const refreshToken = await consentedRefreshToken();
    const cache = new TokenCache();
    const google = googleCalendarMeetingsWith('creator-c', { provider: 'google', refreshToken, calendarId: 'primary' }, settings, cache);
    // 62 s tokens: the cache keeps them until a minute before they expire, so for 2 s.
    await control('token-lifetime', { seconds: 62 });
    const before = (await standInState()).grants.refreshToken;
    await google.check();
    await google.check();
    expect((await standInState()).grants.refreshToken).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await google.check();
    expect((await standInState()).grants.refreshToken).toBe(before + 2);

    // Google refuses a token before its time (revoked elsewhere, clock skew): dropped and asked for once more.
    await control('token-lifetime', { seconds: 3599 });
    await google.check();
    await control('expire-tokens');
    const at = (await standInState()).grants.refreshToken;
    await google.check();
    expect((await standInState()).grants.refreshToken).toBe(at + 1);
  });

  it('is unavailable (502 UPSTREAM_FAILED naming Google) when Google is down, and nothing is made', async () => {
    const refreshToken = await consentedRefreshToken();
    const google = googleCalendarMeetingsWith('creator-d', { provider: 'google', refreshToken, calendarId: 'primary' }, settings, new TokenCache());
    await faults('google', { down: true });
    const id = sessionId();
    const failed = await google.createMeeting(session(id)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ProviderUnavailableError);
    expect(failed).toMatchObject({ code: 'UPSTREAM_FAILED', provider: 'google' });
    await faults('google', null);
    expect((await standInState()).events.some((e) => e.event.id === eventIdOf(id))).toBe(false);
  });
});

describe('the consent flow through the API', () => {
  it('connects: the consent URL, Allow, the callback stores the refresh token sealed and sends the creator back connected', async () => {
    const creator = await accountWithRole('creator', 'google-connect');
    const returnUrl = `${outputs().WebUrl}/dashboard/creator/integrations`;
    const started = await api('POST', '/api/integrations/google/connect', { token: creator.token, body: { returnUrl } });
    expect(started.status).toBe(200);
    const consentUrl = (started.body as { url: string }).url;
    expect(consentUrl.startsWith(`${outputs().GoogleOAuthUrl}?`)).toBe(true);

    const back = await allow(consentUrl);
    // Google sends the browser to the app's origin; the test calls the same route on the gateway.
    expect(`${back.origin}${back.pathname}`).toBe(`${outputs().WebUrl}/api/integrations/google/callback`);
    const callback = await fetch(`${outputs().ApiUrl}${back.pathname}${back.search}`, { redirect: 'manual' });
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(`${returnUrl}?google=connected`);

    const item = (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: integrationKeys.integrations(creator.id), ConsistentRead: true }))).Item!;
    expect(item['googleCalendar']).toMatchObject({ enabled: true, calendarId: 'primary', refreshToken: { ciphertext: expect.any(String) }, check: { ok: true } });
    expect(JSON.stringify(item)).not.toMatch(/1\/\/0local-/);
    const view = await api('GET', '/api/integrations', { token: creator.token });
    expect(view.body).toMatchObject({ googleCalendar: { enabled: true, calendarId: 'primary' } });
    expect(JSON.stringify(view.body)).not.toContain('ciphertext');

    // The same redirect again: the code is spent, the creator is told, the stored consent stays.
    const replay = await fetch(`${outputs().ApiUrl}${back.pathname}${back.search}`, { redirect: 'manual' });
    expect(replay.headers.get('location')).toBe(`${returnUrl}?google=error&reason=refused`);
  });

  it('refuses a returnUrl off the site (400), and a forged state goes back to the integrations screen with the reason', async () => {
    const creator = await accountWithRole('creator', 'google-connect-bad');
    const bad = await api('POST', '/api/integrations/google/connect', { token: creator.token, body: { returnUrl: 'https://evil.example/' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [{ path: 'returnUrl' }] } });
    const forged = await fetch(`${outputs().ApiUrl}/api/integrations/google/callback?code=x&state=${creator.id}.e30`, { redirect: 'manual' });
    expect(forged.status).toBe(302);
    expect(forged.headers.get('location')).toBe(`${outputs().WebUrl}/dashboard/creator/integrations?google=error&reason=invalid_state`);
  });
});

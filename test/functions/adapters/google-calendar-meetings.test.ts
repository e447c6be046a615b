import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf, googleCalendarMeetingsWith, googleConsentWith, GOOGLE_CALENDAR_SCOPE, type GoogleClientSettings } from '#adapters/google-calendar-meetings.ts';
import { TokenCache } from '#adapters/token-cache.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import { GOOGLE_DEMO_CLIENT_ID, GOOGLE_DEMO_CLIENT_SECRET, startGoogleStandIn, type GoogleStandIn } from '#lib/local/google/stand-in.ts';

/** The Google adapter against the Google stand-in run in this process, and against a fake Google that fails. */
let google: GoogleStandIn;
let settings: GoogleClientSettings;
let failing: Server;
let failingUrl: string;
let failures: { status: number; body: unknown }[] = [];

beforeAll(async () => {
  google = await startGoogleStandIn({ port: 0 });
  settings = {
    clientId: GOOGLE_DEMO_CLIENT_ID,
    clientSecret: GOOGLE_DEMO_CLIENT_SECRET,
    authUrl: google.consentUrl,
    tokenUrl: google.tokenUrl,
    calendarApiUrl: google.calendarApiUrl,
    redirectUri: 'http://localhost:5173/api/integrations/google/callback',
  };
  // A Google whose every answer is the next of `failures` (the token endpoint answers a token).
  failing = createServer((req, res) => {
    if (req.url === '/token') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ access_token: 'ya29.fake', expires_in: 3599, token_type: 'Bearer' }));
    }
    const next = failures.shift() ?? { status: 500, body: { error: { code: 500, message: 'Backend Error', errors: [{ reason: 'backendError' }] } } };
    res.writeHead(next.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(next.body));
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await google.stop();
  await new Promise((resolve) => failing.close(resolve));
});

const refreshTokenByConsent = async (): Promise<string> => {
  const form = new URLSearchParams({ client_id: GOOGLE_DEMO_CLIENT_ID, redirect_uri: settings.redirectUri, scope: GOOGLE_CALENDAR_SCOPE, state: 's', decision: 'allow' });
  const res = await fetch(`${google.url}/o/oauth2/v2/auth/decision`, { method: 'POST', body: form, redirect: 'manual' });
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  return (await googleConsentWith(settings).exchangeCode(code)).refreshToken;
};

describe('the event id of a session', () => {
  it('is base32hex of 52 characters, the same for the same session and different for another', () => {
    const id = eventIdOf('01JSESSIONAAAAAAAAAAAAAAAA');
    expect(id).toMatch(/^[a-v0-9]{52}$/);
    expect(eventIdOf('01JSESSIONAAAAAAAAAAAAAAAA')).toBe(id);
    expect(eventIdOf('01JSESSIONAAAAAAAAAAAAAAAB')).not.toBe(id);
  });
});

describe('the consent URL', () => {
  it('asks for offline access to calendar events, every time, with the state and the callback', () => {
    const url = new URL(googleConsentWith(settings).consentUrl('state-9'));
    expect(`${url.origin}${url.pathname}`).toBe(google.consentUrl);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      access_type: 'offline',
      prompt: 'consent',
      response_type: 'code',
      scope: GOOGLE_CALENDAR_SCOPE,
      state: 'state-9',
      client_id: GOOGLE_DEMO_CLIENT_ID,
      redirect_uri: settings.redirectUri,
    });
  });
});

describe('the Google provider', () => {
  it('shares one token between the providers of one creator, and asks again for another consent', async () => {
    const refreshToken = await refreshTokenByConsent();
    const cache = new TokenCache();
    const grants = async () => ((await (await fetch(`${google.url}/_stand-in/state`)).json()) as { grants: { refreshToken: number } }).grants.refreshToken;
    const before = await grants();
    await googleCalendarMeetingsWith('c1', { provider: 'google', refreshToken, calendarId: 'primary' }, settings, cache).check();
    await googleCalendarMeetingsWith('c1', { provider: 'google', refreshToken, calendarId: 'primary' }, settings, cache).check();
    expect(await grants()).toBe(before + 1);
    await googleCalendarMeetingsWith('c1', { provider: 'google', refreshToken: await refreshTokenByConsent(), calendarId: 'primary' }, settings, cache).check();
    expect(await grants()).toBe(before + 2);
  });

  it('is unavailable on a 5xx, naming the status, and refused in words on a 403 and on a second 401', async () => {
    const onFake = googleCalendarMeetingsWith('c2', { provider: 'google', refreshToken: 'r', calendarId: 'primary' }, { ...settings, tokenUrl: `${failingUrl}/token`, calendarApiUrl: `${failingUrl}/calendar/v3` }, new TokenCache());
    failures = [{ status: 503, body: { error: { code: 503, message: 'Unavailable', errors: [{ reason: 'backendError' }] } } }];
    const down = await onFake.check().catch((e: unknown) => e);
    expect(down).toBeInstanceOf(ProviderUnavailableError);
    expect((down as Error).message).toBe('Google Calendar answered 503: try again in a few minutes.');

    failures = [{ status: 403, body: { error: { code: 403, message: 'Insufficient Permission', errors: [{ reason: 'insufficientPermissions' }] } } }];
    await expect(onFake.check()).rejects.toThrow('Google refused access to this calendar: connect Google Calendar again and allow access to your calendar events.');

    const unauthorized = { status: 401, body: { error: { code: 401, message: 'Invalid Credentials', errors: [{ reason: 'authError' }] } } };
    failures = [unauthorized, unauthorized];
    const refused = await onFake.check().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IntegrationNotConnectedError);
    expect((refused as Error).message).toBe('Google refused access: connect Google Calendar again.');
    expect(failures).toEqual([]);
  });

  it('is unavailable when Google cannot be reached at all', async () => {
    const nowhere = googleCalendarMeetingsWith('c3', { provider: 'google', refreshToken: 'r', calendarId: 'primary' }, { ...settings, tokenUrl: 'http://127.0.0.1:1/token', calendarApiUrl: 'http://127.0.0.1:1/calendar/v3' }, new TokenCache());
    const failed = await nowhere.check().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ProviderUnavailableError);
    expect(failed).toMatchObject({ provider: 'google', code: 'UPSTREAM_FAILED' });
  });
});

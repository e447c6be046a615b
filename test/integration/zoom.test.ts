import { afterEach, describe, expect, it } from 'vitest';
import { TokenCache } from '#adapters/token-cache.ts';
import { zoomMeetingsWith } from '#adapters/zoom-meetings.ts';
import type { SaveIntegrationsBody } from '#contracts/integrations.ts';
import { faults } from './faults/support.ts';
import { accountWithRole, api, outputs } from './support.ts';

/**
 * Zoom for real against the local cloud's Zoom stand-in (issue 30, decision 0041): the demo Server-to-Server OAuth
 * app connects, a wrong secret is refused with Zoom's reason, an expired token is replaced (Zoom down or late:
 * faults/zoom.test.ts), and the adapter makes, finds (adoption on retry), changes and deletes meetings there.
 */
const zoomControl = async (path: string, body?: unknown) => {
  const res = await fetch(`${new URL(outputs().ZoomOAuthUrl).origin}/_stand-in/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.ok).toBe(true);
  return res.json() as Promise<Record<string, unknown> & { tokensIssued: number; meetings: { id: number; topic: string; agenda: string; duration: number }[] }>;
};

const zoomOnly = (zoom: Partial<SaveIntegrationsBody['zoom']> = {}): SaveIntegrationsBody => ({
  zoom: { enabled: true, accountId: outputs().ZoomAccountId, apiKey: outputs().ZoomClientId, apiSecret: outputs().ZoomClientSecret, ...zoom },
  teams: { enabled: false, clientId: '' },
  googleCalendar: { enabled: false, calendarId: '' },
});

afterEach(async () => {
  await faults.recover();
  await zoomControl('token-lifetime', { seconds: 3600 });
});

describe('connecting Zoom', () => {
  it('is Connected with the demo credentials, on save and on test', async () => {
    const creator = await accountWithRole('creator', 'zoom-demo');
    const saved = await api('PUT', '/api/integrations', { token: creator.token, body: zoomOnly() });
    expect(saved.status).toBe(200);
    expect(saved.body.zoom).toEqual({ enabled: true, apiKey: outputs().ZoomClientId, apiSecretSet: true, accountId: outputs().ZoomAccountId, status: 'connected' });
    expect(await api('POST', '/api/integrations/zoom/test', { token: creator.token })).toEqual({ status: 200, body: { ok: true } });
    expect((await api('GET', '/api/integrations', { token: creator.token })).body.zoom.status).toBe('connected');
  });

  it("shows a wrong secret as an error with Zoom's reason, and the test says the same", async () => {
    const creator = await accountWithRole('creator', 'zoom-wrong');
    const saved = await api('PUT', '/api/integrations', { token: creator.token, body: zoomOnly({ apiSecret: 'not-the-secret' }) });
    expect(saved.status).toBe(200);
    const reason =
      'Zoom refused the API Key or API Secret ("Invalid client_id or client_secret"): check the Client ID and Client Secret of your Server-to-Server OAuth app.';
    expect(saved.body.zoom).toMatchObject({ status: 'error', error: reason });
    expect(await api('POST', '/api/integrations/zoom/test', { token: creator.token })).toEqual({ status: 200, body: { ok: false, error: reason } });
    const wrongAccount = await api('PUT', '/api/integrations', { token: creator.token, body: zoomOnly({ accountId: 'someone-else' }) });
    expect(wrongAccount.body.zoom).toMatchObject({ status: 'error', error: expect.stringContaining('Zoom refused the Account ID') });
    // The right secret again: connected, without retyping the rest.
    expect((await api('PUT', '/api/integrations', { token: creator.token, body: zoomOnly() })).body.zoom.status).toBe('connected');
  });

  it('gets a new token once the cached one expires, and after Zoom stops accepting it', async () => {
    const creator = await accountWithRole('creator', 'zoom-expiry');
    // Tokens of 61 s: the cache keeps them until a minute before they expire, so for 1 s.
    await zoomControl('token-lifetime', { seconds: 61 });
    expect((await api('PUT', '/api/integrations', { token: creator.token, body: zoomOnly() })).body.zoom.status).toBe('connected');
    const before = (await zoomControl('stats')).tokensIssued;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await api('POST', '/api/integrations/zoom/test', { token: creator.token })).body).toEqual({ ok: true });
    expect((await zoomControl('stats')).tokensIssued).toBe(before + 1);

    // A token Zoom refuses (401 code 124) is dropped and the call made again with a fresh one.
    await zoomControl('token-lifetime', { seconds: 3600 });
    expect((await api('POST', '/api/integrations/zoom/test', { token: creator.token })).body).toEqual({ ok: true });
    const cached = (await zoomControl('stats')).tokensIssued;
    expect((await api('POST', '/api/integrations/zoom/test', { token: creator.token })).body).toEqual({ ok: true });
    expect((await zoomControl('stats')).tokensIssued).toBe(cached);
    await zoomControl('expire-tokens', {});
    expect((await api('POST', '/api/integrations/zoom/test', { token: creator.token })).body).toEqual({ ok: true });
    expect((await zoomControl('stats')).tokensIssued).toBe(cached + 1);
  });

  it('answers 404 for a provider it does not know', async () => {
    const creator = await accountWithRole('creator', 'zoom-unknown');
    expect((await api('POST', '/api/integrations/slack/test', { token: creator.token })).status).toBe(404);
  });
});

describe('the Zoom adapter against the stand-in', () => {
  it('makes a meeting, adopts it by session id, changes it and deletes it', async () => {
    const zoom = zoomMeetingsWith({ apiUrl: outputs().ZoomApiUrl, oauthUrl: outputs().ZoomOAuthUrl, cache: new TokenCache() })('creator-adapter', {
      provider: 'zoom',
      accountId: outputs().ZoomAccountId,
      clientId: outputs().ZoomClientId,
      clientSecret: outputs().ZoomClientSecret,
    });
    const sessionId = `01SESSION${Date.now()}`;
    const details = { sessionId, title: 'Cohort kick-off', description: 'Say hello.', startsAt: new Date(Date.now() + 86_400_000).toISOString(), durationMinutes: 60, timeZone: 'Europe/London' };
    const meeting = await zoom.createMeeting(details);
    expect(meeting.meetingId).toMatch(/^\d+$/);
    expect(meeting.joinUrl).toContain(`/j/${meeting.meetingId}`);
    expect(meeting.hostUrl).toContain(`/s/${meeting.meetingId}`);
    const atZoom = () => zoomControl('meetings').then((state) => state.meetings.find((m) => String(m.id) === meeting.meetingId));
    expect(await atZoom()).toMatchObject({ topic: 'Cohort kick-off', duration: 60, agenda: `Say hello.\n\nSession id: ${sessionId}` });

    expect(await zoom.findMeeting(sessionId)).toEqual(meeting);
    expect(await zoom.updateMeeting(meeting.meetingId, { ...details, title: 'Cohort kick-off (moved)', durationMinutes: 90 })).toBe('updated');
    expect(await atZoom()).toMatchObject({ topic: 'Cohort kick-off (moved)', duration: 90 });
    await zoom.deleteMeeting(meeting.meetingId);
    expect(await atZoom()).toBeUndefined();
    expect(await zoom.findMeeting(sessionId)).toBeUndefined();
    expect(await zoom.updateMeeting(meeting.meetingId, details)).toBe('gone');
    await expect(zoom.deleteMeeting(meeting.meetingId)).resolves.toBeUndefined();
  });
});

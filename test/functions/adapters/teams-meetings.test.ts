import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_PROPERTY_ID, identityRefusal, teamsMeetings } from '#adapters/teams-meetings.ts';
import { TokenCache } from '#adapters/token-cache.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingDetails } from '#core/live-sessions/ports.ts';
import { teamsDemoCredentials } from '#lib/local/microsoft/directory.ts';
import { startMicrosoftStandIn, type MicrosoftStandIn } from '#lib/local/microsoft/stand-in.ts';
import { listenAt } from '#lib/local/http-server.ts';

/**
 * The Teams adapter against the Microsoft stand-in (a fake of Microsoft identity and Graph speaking their wire
 * protocol), in process: MSAL and the Graph SDK do the talking, as in the cloud.
 */
let standIn: MicrosoftStandIn;
let cache: TokenCache;

const demo = { provider: 'teams' as const, ...teamsDemoCredentials };
const connect = (credentials: Partial<typeof demo> = {}, options: { timeoutMs?: number; url?: string } = {}) =>
  teamsMeetings('creator-1', { ...demo, ...credentials }, { graphUrl: options.url ?? standIn.url, loginUrl: options.url ?? standIn.url, cache, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });

const details = (sessionId: string, overrides: Partial<MeetingDetails> = {}): MeetingDetails => ({
  sessionId,
  title: 'Week 1: kick-off',
  description: 'Bring your questions.',
  startsAt: '2030-03-01T10:00:00.000Z',
  durationMinutes: 45,
  timeZone: 'Europe/London',
  ...overrides,
});

const tokenRequests = () => standIn.state.calls.filter((call) => call.path.endsWith('/oauth2/v2.0/token')).length;
const live = () => standIn.state.events.filter((event) => !event.deletedDateTime);

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IntegrationNotConnectedError);
  return (error as Error).message;
};

beforeAll(async () => {
  standIn = await startMicrosoftStandIn({ port: 0 });
});
afterAll(() => standIn.stop());
beforeEach(async () => {
  cache = new TokenCache();
  await fetch(`${standIn.url}/_stand-in/reset`, { method: 'POST' });
});

describe('the Teams adapter', () => {
  it('checks the demo credentials: a token and one Graph call on the organiser', async () => {
    await connect().check();
    expect(standIn.state.calls.map((call) => `${call.method} ${call.path} ${call.status}`)).toEqual([
      `POST /${demo.tenantId}/oauth2/v2.0/token 200`,
      `GET /v1.0/users/${encodeURIComponent(demo.organizerEmail)}/calendar 200`,
    ]);
  });

  it('creates the Teams meeting as an event in the organiser calendar, at the session time, carrying the session id', async () => {
    const meeting = await connect().createMeeting(details('01JSESSION0000000000000001'));
    expect(meeting.joinUrl).toMatch(/\/l\/meetup-join\//);
    expect(meeting.hostUrl).toBe(meeting.joinUrl);
    const [event] = live();
    expect(event).toMatchObject({
      id: meeting.meetingId,
      subject: 'Week 1: kick-off',
      body: { contentType: 'text', content: 'Bring your questions.' },
      start: { dateTime: '2030-03-01T10:00:00.0000000', timeZone: 'UTC' },
      end: { dateTime: '2030-03-01T10:45:00.0000000', timeZone: 'UTC' },
      isOnlineMeeting: true,
      onlineMeetingProvider: 'teamsForBusiness',
      transactionId: '01JSESSION0000000000000001',
      singleValueExtendedProperties: [{ id: SESSION_PROPERTY_ID, value: '01JSESSION0000000000000001' }],
    });
  });

  it('finds the meeting an earlier attempt made (a save that failed), and nothing for another session', async () => {
    const made = await connect().createMeeting(details('01JSESSION0000000000000002'));
    await connect().createMeeting(details('01JSESSION0000000000000003'));
    expect(await connect().findMeeting('01JSESSION0000000000000002')).toEqual(made);
    expect(await connect().findMeeting('01JSESSION0000000000000009')).toBeUndefined();
  });

  it('a create sent again for the same session makes no second meeting (transactionId)', async () => {
    const first = await connect().createMeeting(details('01JSESSION0000000000000004'));
    const again = await connect().createMeeting(details('01JSESSION0000000000000004'));
    expect(again).toEqual(first);
    expect(live()).toHaveLength(1);
  });

  it('moves and renames the meeting; a meeting gone answers "gone"', async () => {
    const teams = connect();
    const meeting = await teams.createMeeting(details('01JSESSION0000000000000005'));
    expect(await teams.updateMeeting(meeting.meetingId, details('01JSESSION0000000000000005', { title: 'Moved', startsAt: '2030-03-02T09:30:00.000Z', durationMinutes: 60 }))).toBe('updated');
    expect(live()[0]).toMatchObject({ subject: 'Moved', start: { dateTime: '2030-03-02T09:30:00.0000000' }, end: { dateTime: '2030-03-02T10:30:00.0000000' } });
    await teams.deleteMeeting(meeting.meetingId);
    expect(live()).toHaveLength(0);
    expect(await teams.updateMeeting(meeting.meetingId, details('01JSESSION0000000000000005'))).toBe('gone');
    await expect(teams.deleteMeeting(meeting.meetingId)).resolves.toBeUndefined();
  });

  it('asks for a token once while it lasts, and for a new one when Graph says it expired', async () => {
    const teams = connect();
    await teams.check();
    await teams.check();
    expect(tokenRequests()).toBe(1);
    await fetch(`${standIn.url}/_stand-in/expire-tokens`, { method: 'POST' });
    await teams.createMeeting(details('01JSESSION0000000000000006'));
    expect(tokenRequests()).toBe(2);
    expect(standIn.state.calls.filter((call) => call.status === 401)).toHaveLength(1);
    expect(live()).toHaveLength(1);
  });

  it('a changed secret never gets the token of the old one', async () => {
    await connect().check();
    expect(await refusal(connect({ clientSecret: 'not-the-secret' }).check())).toBe(
      'Microsoft refused the client secret: check the Client Secret of your app registration (its Value, not its Secret ID).',
    );
  });

  it('refuses a wrong secret, an unknown tenant, an unknown app and an unknown organiser in plain words', async () => {
    expect(await refusal(connect({ clientSecret: 'wrong' }).check())).toMatch(/^Microsoft refused the client secret/);
    expect(await refusal(connect({ tenantId: '00000000-0000-0000-0000-000000000000' }).check())).toBe(
      'Microsoft found no tenant with this Tenant ID: check the Directory (tenant) ID of your app registration.',
    );
    expect(await refusal(connect({ clientId: '11111111-2222-3333-4444-555555555555' }).check())).toBe(
      'Microsoft found no app with this Client ID in the tenant: check the Application (client) ID of your app registration.',
    );
    expect(await refusal(connect({ organizerEmail: 'nobody@demoschool.onmicrosoft.com' }).createMeeting(details('01JSESSION0000000000000007')))).toBe(
      'Microsoft has no mailbox nobody@demoschool.onmicrosoft.com in this tenant: check the Organizer Email (a licensed user of your tenant).',
    );
    expect(await refusal(connect({ tenantId: 'not a tenant/../x' }).check())).toMatch(/^The Tenant ID is your directory's ID/);
    expect(live()).toHaveLength(0);
  });

  it('names an AADSTS refusal it has no words of its own for', () => {
    expect(identityRefusal(50034, 'AADSTS50034: The user account does not exist in the directory.\r\nTrace ID: x')).toBe(
      'Microsoft refused the app registration (AADSTS50034): The user account does not exist in the directory.',
    );
  });

  describe('when Microsoft is down', () => {
    let server: Server;
    let url: string;
    let answer: 'graph-503' | 'identity-503' | 'hang' = 'graph-503';

    beforeAll(async () => {
      // Microsoft identity and Graph failing as they do: 503 with their error bodies, or no answer at all.
      server = createServer((req, res) => {
        if (answer === 'hang') return;
        const identity = (req.url ?? '').includes('/oauth2/');
        if (identity && answer === 'graph-503') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: 'token' }));
        }
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(identity ? JSON.stringify({ error: 'temporarily_unavailable', error_description: 'AADSTS90033: A transient error has occurred. Please try again.', error_codes: [90033] }) : JSON.stringify({ error: { code: 'serviceNotAvailable', message: 'Service unavailable' } }));
      });
      url = await listenAt(server, 0, '127.0.0.1');
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    const unavailable = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect((error as ProviderUnavailableError).provider).toBe('teams');
    };

    it('Graph answering 503 is ProviderUnavailableError', async () => {
      answer = 'graph-503';
      await unavailable(connect({}, { url }).createMeeting(details('01JSESSION0000000000000008')));
    });

    it('Microsoft identity answering 503 is ProviderUnavailableError', async () => {
      answer = 'identity-503';
      await unavailable(connect({}, { url }).check());
    });

    it('no answer within the timeout is ProviderUnavailableError', async () => {
      answer = 'hang';
      const started = Date.now();
      await unavailable(connect({}, { url, timeoutMs: 300 }).check());
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('nothing listening is ProviderUnavailableError', async () => {
      await unavailable(connect({}, { url: 'http://127.0.0.1:9' }).check());
    });
  });
});

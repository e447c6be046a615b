import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { teamsMeetings } from '#adapters/teams-meetings.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingDetails } from '#core/live-sessions/ports.ts';
import type { StoredEvent } from '#lib/local/microsoft/stand-in.ts';
import { faults } from './faults/support.ts';
import { outputs, useLocalCloudEnv } from './support.ts';

/**
 * Microsoft Teams through the local cloud (issue 30 points 1 and 5; decision 0046): the adapter, configured as a
 * function is (GRAPH_API_URL and MICROSOFT_LOGIN_URL through the fault proxy), with the demo credentials of
 * `.local/outputs.json`, against the Microsoft stand-in.
 */
const demo = () => ({
  provider: 'teams' as const,
  tenantId: outputs().TeamsTenantId,
  clientId: outputs().TeamsClientId,
  clientSecret: outputs().TeamsClientSecret,
  organizerEmail: outputs().TeamsOrganizerEmail,
});
/** A creator of its own per test: the adapter's token cache is per creator and credentials. */
const teams = (overrides: Partial<ReturnType<typeof demo>> = {}) => teamsMeetings(`creator-${randomUUID()}`, { ...demo(), ...overrides });

const details = (sessionId: string, overrides: Partial<MeetingDetails> = {}): MeetingDetails => ({
  sessionId,
  title: 'Live Q&A',
  description: 'Questions on module 2.',
  startsAt: '2031-05-04T16:00:00.000Z',
  durationMinutes: 30,
  timeZone: 'Europe/London',
  ...overrides,
});
const sessionId = () => `01J${randomUUID().replace(/-/g, '').slice(0, 23).toUpperCase()}`;

const standIn = (path: string, init?: RequestInit) => fetch(`${outputs().GraphApiUrl}/_stand-in/${path}`, init);
const eventsAtMicrosoft = async (): Promise<StoredEvent[]> => ((await (await standIn('events')).json()) as { events: StoredEvent[] }).events;
const eventFor = async (session: string) => (await eventsAtMicrosoft()).find((event) => event.transactionId === session);
const tokenRequests = async () =>
  ((await (await standIn('calls')).json()) as { calls: { path: string }[] }).calls.filter((call) => call.path.endsWith('/oauth2/v2.0/token')).length;

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

beforeAll(() => useLocalCloudEnv());
afterEach(() => faults.recover());

describe('Teams meetings through the local cloud', () => {
  it('connects with the demo credentials of outputs.json', async () => {
    await expect(teams().check()).resolves.toBeUndefined();
  });

  it('creates the meeting in the organiser calendar, changes it and deletes it there', async () => {
    const provider = teams();
    const session = sessionId();
    const meeting = await provider.createMeeting(details(session));
    expect(await eventFor(session)).toMatchObject({ id: meeting.meetingId, subject: 'Live Q&A', isOnlineMeeting: true, joinUrl: meeting.joinUrl });
    const join = await fetch(meeting.joinUrl);
    expect(join.status).toBe(200);
    expect(await join.text()).toContain('You joined <strong>Live Q&#38;A</strong>');

    expect(await provider.updateMeeting(meeting.meetingId, details(session, { title: 'Live Q&A (moved)', startsAt: '2031-05-05T17:00:00.000Z' }))).toBe('updated');
    expect(await eventFor(session)).toMatchObject({ subject: 'Live Q&A (moved)', start: { dateTime: '2031-05-05T17:00:00.0000000', timeZone: 'UTC' } });

    await provider.deleteMeeting(meeting.meetingId);
    expect((await eventFor(session))?.deletedDateTime).toBeDefined();
    expect(await provider.updateMeeting(meeting.meetingId, details(session))).toBe('gone');
  });

  it('finds the meeting of a session whose save failed, so a retry adopts it instead of making another', async () => {
    const session = sessionId();
    const made = await teams().createMeeting(details(session));
    // The session's save failed after the meeting was made; the retry (another function instance) looks first.
    expect(await teams().findMeeting(session)).toEqual(made);
    expect(await teams().createMeeting(details(session))).toEqual(made);
    expect((await eventsAtMicrosoft()).filter((event) => event.transactionId === session)).toHaveLength(1);
  });

  it('refuses a wrong secret, an unknown tenant and an unknown organiser with words a creator can act on', async () => {
    const wrongSecret = await failure(teams({ clientSecret: 'Xq58Q~not.the.secret' }).check());
    expect(wrongSecret).toBeInstanceOf(IntegrationNotConnectedError);
    expect((wrongSecret as Error).message).toBe('Microsoft refused the client secret: check the Client Secret of your app registration (its Value, not its Secret ID).');

    const unknownTenant = await failure(teams({ tenantId: '3f2504e0-4f89-11d3-9a0c-0305e82c3301' }).check());
    expect(unknownTenant).toBeInstanceOf(IntegrationNotConnectedError);
    expect((unknownTenant as Error).message).toBe('Microsoft found no tenant with this Tenant ID: check the Directory (tenant) ID of your app registration.');

    const unknownOrganiser = await failure(teams({ organizerEmail: 'someone-else@demoschool.onmicrosoft.com' }).check());
    expect(unknownOrganiser).toBeInstanceOf(IntegrationNotConnectedError);
    expect((unknownOrganiser as Error).message).toBe(
      'Microsoft has no mailbox someone-else@demoschool.onmicrosoft.com in this tenant: check the Organizer Email (a licensed user of your tenant).',
    );
    expect(((unknownOrganiser as IntegrationNotConnectedError).details as { provider: string }).provider).toBe('teams');
  });

  it('gets a new token once the old one expired', async () => {
    const provider = teams();
    await provider.check();
    const before = await tokenRequests();
    await provider.check();
    expect(await tokenRequests()).toBe(before);

    await standIn('expire-tokens', { method: 'POST' });
    const session = sessionId();
    await provider.createMeeting(details(session));
    expect(await tokenRequests()).toBe(before + 1);
    expect(await eventFor(session)).toBeDefined();
  });

  it('Microsoft down (fault mode) is ProviderUnavailableError naming Teams, and nothing is made', async () => {
    const provider = teams();
    await provider.check();
    await faults.set('microsoft', { down: true });
    const session = sessionId();
    const error = await failure(provider.createMeeting(details(session)));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).provider).toBe('teams');
    expect(await failure(teams().check())).toBeInstanceOf(ProviderUnavailableError);
    expect(await eventFor(session)).toBeUndefined();
  });
});

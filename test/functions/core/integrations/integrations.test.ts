import { describe, expect, it, vi } from 'vitest';
import { type IntegrationsView, isConnected, saveIntegrationsBody, type SaveIntegrationsBody } from '#contracts/integrations.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError, ValidationError } from '#core/errors.ts';
import { connectedCredentials, testIntegration } from '#core/integrations/connections.ts';
import { DEFAULT_INTEGRATIONS, getIntegrations, NOT_CHECKED, saveIntegrations } from '#core/integrations/integrations.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { countingCipher, fakeMeetingProviders, memoryIntegrations } from '#test/functions/fakes/integrations.ts';

const setup = (outcomes: Parameters<typeof fakeMeetingProviders>[0] = {}) => ({
  integrations: memoryIntegrations(),
  cipher: countingCipher(),
  clock: testClock(),
  providers: fakeMeetingProviders(outcomes),
});
type Deps = ReturnType<typeof setup>;

const allOff: SaveIntegrationsBody = {
  zoom: { enabled: false, apiKey: '', accountId: '' },
  teams: { enabled: false, clientId: '' },
  googleCalendar: { enabled: false, calendarId: '' },
};
const withZoom = (zoom: Partial<SaveIntegrationsBody['zoom']>): SaveIntegrationsBody => ({ ...allOff, zoom: { ...allOff.zoom, ...zoom } });
const save = (d: Deps, body: SaveIntegrationsBody, creatorId = 'creator-1') => saveIntegrations(d, { creatorId, body });
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('reading integrations', () => {
  it('answers every service off and empty before the first save', async () => {
    expect(await getIntegrations(setup(), 'creator-1')).toEqual({
      zoom: { enabled: false, apiKey: '', apiSecretSet: false, accountId: '', status: 'off' },
      teams: { enabled: false, tenantId: '', clientId: '', clientSecretSet: false, organizerEmail: '', status: 'off' },
      googleCalendar: { enabled: false, calendarId: '', consented: false, status: 'off' },
      updatedAt: null,
    });
  });
});

describe('saving integrations', () => {
  it('stores the secret sealed, answers only that one is set, and stamps the time', async () => {
    const d = setup();
    const view = await save(d, withZoom({ enabled: true, apiKey: 'zoom-key', apiSecret: 'zoom-secret-123', accountId: 'acct-9' }));
    expect(view.zoom).toEqual({ enabled: true, apiKey: 'zoom-key', apiSecretSet: true, accountId: 'acct-9', status: 'connected' });
    expect(view.updatedAt).toBe(NOW);
    expect(JSON.stringify(view)).not.toContain('zoom-secret-123');
    const stored = d.integrations.items.get('creator-1');
    expect(JSON.stringify(stored)).not.toContain('zoom-secret-123');
    expect(await d.cipher.decrypt(stored!.zoom.apiSecret!, 'creator-1')).toBe('zoom-secret-123');
  });

  it('keeps the stored secret when the secret is omitted or left blank, without sealing anything again', async () => {
    const d = setup();
    await save(d, withZoom({ enabled: true, apiKey: 'k', apiSecret: 'first-secret', accountId: 'a' }));
    const sealedFirst = d.integrations.items.get('creator-1')!.zoom.apiSecret;
    await save(d, withZoom({ enabled: true, apiKey: 'k2', accountId: 'a' }));
    await save(d, withZoom({ enabled: true, apiKey: 'k3', apiSecret: '', accountId: 'a' }));
    expect(d.cipher.sealed).toBe(1);
    expect(d.integrations.items.get('creator-1')!.zoom.apiSecret).toEqual(sealedFirst);
    expect((await getIntegrations(d, 'creator-1')).zoom).toMatchObject({ apiKey: 'k3', apiSecretSet: true });
  });

  it('replaces the secret when a new one is given', async () => {
    const d = setup();
    await save(d, withZoom({ enabled: true, apiKey: 'k', apiSecret: 'old-secret', accountId: 'a' }));
    await save(d, withZoom({ enabled: true, apiKey: 'k', apiSecret: 'new-secret', accountId: 'a' }));
    expect(await d.cipher.decrypt(d.integrations.items.get('creator-1')!.zoom.apiSecret!, 'creator-1')).toBe('new-secret');
  });

  it('keeps the fields and the secret of a service switched off, so switching it back on needs nothing retyped', async () => {
    const d = setup();
    await save(d, withZoom({ enabled: true, apiKey: 'k', apiSecret: 's', accountId: 'a' }));
    const off = await save(d, withZoom({ enabled: false, apiKey: 'k', accountId: 'a' }));
    expect(off.zoom).toEqual({ enabled: false, apiKey: 'k', apiSecretSet: true, accountId: 'a', status: 'off' });
    expect(isConnected(off, 'zoom')).toBe(false);
    const on = await save(d, withZoom({ enabled: true, apiKey: 'k', accountId: 'a' }));
    expect(isConnected(on, 'zoom')).toBe(true);
  });

  it('forgets a secret sent as null', async () => {
    const d = setup();
    await save(d, { ...allOff, teams: { enabled: true, tenantId: 't', clientId: 'c', clientSecret: 'teams-secret', organizerEmail: 'host@example.com' } });
    const view = await save(d, { ...allOff, teams: { enabled: false, clientId: 'c', clientSecret: null } });
    expect(view.teams.clientSecretSet).toBe(false);
  });

  it('keeps the stored Zoom account id when a client does not send one', async () => {
    const d = setup();
    await save(d, withZoom({ accountId: 'acct-1' }));
    expect((await save(d, { ...allOff, zoom: { enabled: false, apiKey: '' } })).zoom.accountId).toBe('acct-1');
  });

  it('refuses to enable a service without its fields, naming each missing one, and stores nothing', async () => {
    const d = setup();
    const error = await failure(
      save(d, {
        zoom: { enabled: true, apiKey: '', accountId: '' },
        teams: { enabled: true, clientId: 'c' },
        googleCalendar: { enabled: true, calendarId: '' },
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('To enable Zoom, enter its API Key.');
    expect((error as ValidationError).details).toEqual([
      { path: 'zoom.apiKey', message: 'To enable Zoom, enter its API Key.' },
      { path: 'zoom.apiSecret', message: 'To enable Zoom, enter its API Secret.' },
      { path: 'zoom.accountId', message: 'To enable Zoom, enter its Account ID.' },
      { path: 'teams.tenantId', message: 'To enable Microsoft Teams, enter its Tenant ID.' },
      { path: 'teams.clientSecret', message: 'To enable Microsoft Teams, enter its Client Secret.' },
      { path: 'teams.organizerEmail', message: 'To enable Microsoft Teams, enter its Organizer email.' },
      { path: 'googleCalendar.calendarId', message: 'To enable Google Calendar, enter its Calendar ID.' },
    ]);
    expect(d.integrations.items.size).toBe(0);
    expect(d.cipher.sealed).toBe(0);
    expect(d.providers.checks).toEqual([]);
  });

  it("keeps one creator's integrations apart from another's", async () => {
    const d = setup();
    await save(d, { ...allOff, googleCalendar: { enabled: true, calendarId: 'team@example.com' } }, 'creator-a');
    expect(await getIntegrations(d, 'creator-b')).toEqual(DEFAULT_INTEGRATIONS);
  });
});

describe('the PUT body', () => {
  const parse = (body: unknown) => saveIntegrationsBody.safeParse(body);

  it('accepts the form as the screen sends it, trimming ids but not secrets', () => {
    const parsed = parse(withZoom({ enabled: true, apiKey: '  key  ', apiSecret: '  s  ' }));
    expect(parsed.success && parsed.data.zoom).toMatchObject({ apiKey: 'key', apiSecret: '  s  ' });
  });

  it('refuses unknown fields, a missing service and over-long values', () => {
    expect(parse({ ...allOff, slack: {} }).success).toBe(false);
    expect(parse({ zoom: allOff.zoom, teams: allOff.teams }).success).toBe(false);
    expect(parse(withZoom({ apiKey: 'k'.repeat(257) })).success).toBe(false);
    expect(parse(withZoom({ apiSecret: 's'.repeat(1025) })).success).toBe(false);
    expect(parse({ ...allOff, teams: { enabled: false, clientId: '', organizerEmail: 'not-an-address' } }).success).toBe(false);
  });
});

describe('checking the connections for real', () => {
  const zoomOn = withZoom({ enabled: true, apiKey: 'client-id', apiSecret: 'client-secret', accountId: 'acct' });
  const teamsOn: SaveIntegrationsBody['teams'] = { enabled: true, tenantId: 'tenant', clientId: 'app', clientSecret: 'teams-secret', organizerEmail: 'host@example.com' };

  it('checks each switched-on provider on save with the unsealed credentials, and shows the outcome', async () => {
    const d = setup({ teams: { refuse: 'Microsoft refused the client secret: check the Client Secret of your app registration.' } });
    const view = await save(d, { ...zoomOn, teams: teamsOn, googleCalendar: { enabled: true, calendarId: 'primary' } });
    expect(d.providers.checks.map((c) => c.credentials)).toEqual([
      { provider: 'zoom', accountId: 'acct', clientId: 'client-id', clientSecret: 'client-secret' },
      { provider: 'teams', tenantId: 'tenant', clientId: 'app', clientSecret: 'teams-secret', organizerEmail: 'host@example.com' },
    ]);
    expect(view.zoom.status).toBe('connected');
    expect(view.teams).toMatchObject({ status: 'error', error: 'Microsoft refused the client secret: check the Client Secret of your app registration.' });
    // Google is switched on but nobody consented: no call, and the reason says what to do.
    expect(view.googleCalendar).toMatchObject({ consented: false, status: 'error', error: 'Connect Google Calendar to give access to your calendar.' });
    expect(await getIntegrations(d, 'creator-1')).toEqual(view);
  });

  it('checks a stored secret too (unsealed), and never checks a provider switched off', async () => {
    const d = setup();
    await save(d, zoomOn);
    await save(d, withZoom({ enabled: true, apiKey: 'client-id', accountId: 'acct' }));
    await save(d, withZoom({ enabled: false, apiKey: 'client-id', accountId: 'acct' }));
    expect(d.providers.checks.map((c) => c.credentials)).toEqual([
      { provider: 'zoom', accountId: 'acct', clientId: 'client-id', clientSecret: 'client-secret' },
      { provider: 'zoom', accountId: 'acct', clientId: 'client-id', clientSecret: 'client-secret' },
    ]);
  });

  it('saves even when a provider is down or never answers, with the reason as its status', async () => {
    const d = setup({ zoom: { down: 'Zoom could not be reached (token).' }, teams: 'hang' });
    vi.useFakeTimers();
    const view = await withFakeTimers(saveIntegrations(d, { creatorId: 'creator-1', body: { ...zoomOn, teams: teamsOn } })).finally(() => vi.useRealTimers());
    expect(view.zoom).toMatchObject({ status: 'error', error: 'Zoom could not be reached (token).' });
    expect(view.teams).toMatchObject({ status: 'error', error: 'Microsoft Teams did not answer within 20 s.' });
  });

  it('tests a provider on demand, stores the outcome and answers it', async () => {
    const d = setup();
    await save(d, zoomOn);
    d.providers.outcomes.zoom = { refuse: 'Zoom refused the API Key or API Secret ("Invalid client_id or client_secret").' };
    expect(await testIntegration(d, { creatorId: 'creator-1', provider: 'zoom' })).toEqual({
      ok: false,
      error: 'Zoom refused the API Key or API Secret ("Invalid client_id or client_secret").',
    });
    expect((await getIntegrations(d, 'creator-1')).zoom).toMatchObject({ status: 'error', error: 'Zoom refused the API Key or API Secret ("Invalid client_id or client_secret").' });
    d.providers.outcomes.zoom = 'ok';
    expect(await testIntegration(d, { creatorId: 'creator-1', provider: 'zoom' })).toEqual({ ok: true });
    expect((await getIntegrations(d, 'creator-1')).zoom.status).toBe('connected');
  });

  it('answers 502 naming the provider when it is down on a test, and shows why', async () => {
    const d = setup();
    await save(d, zoomOn);
    d.providers.outcomes.zoom = { down: 'Zoom answered 503 (the user read).' };
    const error = await failure(testIntegration(d, { creatorId: 'creator-1', provider: 'zoom' }));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).provider).toBe('zoom');
    expect((await getIntegrations(d, 'creator-1')).zoom).toMatchObject({ status: 'error', error: 'Zoom answered 503 (the user read).' });
  });

  it('says what is missing when a provider has no settings to test, and calls nobody', async () => {
    const d = setup();
    expect(await testIntegration(d, { creatorId: 'creator-1', provider: 'teams' })).toEqual({ ok: false, error: 'Microsoft Teams is not set up yet: enter its settings and save.' });
    await save(d, allOff);
    expect(await testIntegration(d, { creatorId: 'creator-1', provider: 'google' })).toEqual({ ok: false, error: 'Connect Google Calendar to give access to your calendar.' });
    expect(d.providers.checks).toEqual([]);
  });

  it('hands the live sessions the unsealed credentials of a switched-on provider, and says why not otherwise', async () => {
    const d = setup();
    const refusal = (provider: 'zoom' | 'teams' | 'google') => failure(connectedCredentials(d, 'creator-1', provider));
    expect(await refusal('zoom')).toEqual(new IntegrationNotConnectedError('zoom', 'Zoom is not connected: switch it on in Live Session Integrations and save.'));
    await save(d, { ...zoomOn, googleCalendar: { enabled: true, calendarId: 'primary' } });
    expect(await connectedCredentials(d, 'creator-1', 'zoom')).toEqual({ provider: 'zoom', accountId: 'acct', clientId: 'client-id', clientSecret: 'client-secret' });
    expect(((await refusal('google')) as Error).message).toBe('Connect Google Calendar to give access to your calendar.');
    expect(((await refusal('teams')) as Error).message).toBe('Microsoft Teams is not connected: switch it on in Live Session Integrations and save.');
  });

  it('shows a provider saved switched on before checks existed as not checked yet', async () => {
    const d = setup();
    await save(d, zoomOn);
    delete d.integrations.items.get('creator-1')!.zoom.check;
    expect((await getIntegrations(d, 'creator-1')).zoom).toMatchObject({ status: 'error', error: NOT_CHECKED });
  });
});

/** Runs a save whose checks hang to their deadline, on fake timers. */
const withFakeTimers = async <T>(promise: Promise<T>): Promise<T> => {
  const settled = promise.then((value) => ({ value }));
  await vi.advanceTimersByTimeAsync(20_001);
  return (await settled).value;
};

describe('connected', () => {
  const view = (over: Partial<IntegrationsView>): IntegrationsView => ({ ...DEFAULT_INTEGRATIONS, ...over });
  it('means the last real check succeeded, not merely every field present', () => {
    const teams = { enabled: true, tenantId: 't', clientId: 'c', clientSecretSet: true, organizerEmail: 'h@example.com' };
    expect(isConnected(view({ teams: { ...teams, status: 'connected' } }), 'teams')).toBe(true);
    expect(isConnected(view({ teams: { ...teams, status: 'error', error: 'refused' } }), 'teams')).toBe(false);
    expect(isConnected(view({ googleCalendar: { enabled: false, calendarId: 'cal', consented: true, status: 'off' } }), 'googleCalendar')).toBe(false);
  });
});

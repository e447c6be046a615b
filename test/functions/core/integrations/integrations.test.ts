import { describe, expect, it } from 'vitest';
import { type IntegrationsView, isConnected, saveIntegrationsBody, type SaveIntegrationsBody } from '#contracts/integrations.ts';
import { ValidationError } from '#core/errors.ts';
import { DEFAULT_INTEGRATIONS, getIntegrations, saveIntegrations } from '#core/integrations/integrations.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { countingCipher, memoryIntegrations } from '#test/functions/fakes/integrations.ts';

const setup = () => ({ integrations: memoryIntegrations(), cipher: countingCipher(), clock: testClock() });
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
      zoom: { enabled: false, apiKey: '', apiSecretSet: false, accountId: '' },
      teams: { enabled: false, clientId: '', clientSecretSet: false },
      googleCalendar: { enabled: false, calendarId: '' },
      updatedAt: null,
    });
  });
});

describe('saving integrations', () => {
  it('stores the secret sealed, answers only that one is set, and stamps the time', async () => {
    const d = setup();
    const view = await save(d, withZoom({ enabled: true, apiKey: 'zoom-key', apiSecret: 'zoom-secret-123', accountId: 'acct-9' }));
    expect(view.zoom).toEqual({ enabled: true, apiKey: 'zoom-key', apiSecretSet: true, accountId: 'acct-9' });
    expect(view.updatedAt).toBe(NOW);
    expect(JSON.stringify(view)).not.toContain('zoom-secret-123');
    const stored = d.integrations.items.get('creator-1');
    expect(JSON.stringify(stored)).not.toContain('zoom-secret-123');
    expect(await d.cipher.decrypt(stored!.zoom.apiSecret!, 'creator-1')).toBe('zoom-secret-123');
  });

  it('keeps the stored secret when the secret is omitted or left blank, without sealing anything again', async () => {
    const d = setup();
    await save(d, withZoom({ enabled: true, apiKey: 'k', apiSecret: 'first-secret' }));
    const sealedFirst = d.integrations.items.get('creator-1')!.zoom.apiSecret;
    await save(d, withZoom({ enabled: true, apiKey: 'k2' }));
    await save(d, withZoom({ enabled: true, apiKey: 'k3', apiSecret: '' }));
    expect(d.cipher.sealed).toBe(1);
    expect(d.integrations.items.get('creator-1')!.zoom.apiSecret).toEqual(sealedFirst);
    expect((await getIntegrations(d, 'creator-1')).zoom).toMatchObject({ apiKey: 'k3', apiSecretSet: true });
  });

  it('replaces the secret when a new one is given', async () => {
    const d = setup();
    await save(d, withZoom({ enabled: true, apiKey: 'k', apiSecret: 'old-secret' }));
    await save(d, withZoom({ enabled: true, apiKey: 'k', apiSecret: 'new-secret' }));
    expect(await d.cipher.decrypt(d.integrations.items.get('creator-1')!.zoom.apiSecret!, 'creator-1')).toBe('new-secret');
  });

  it('keeps the fields and the secret of a service switched off, so switching it back on needs nothing retyped', async () => {
    const d = setup();
    await save(d, withZoom({ enabled: true, apiKey: 'k', apiSecret: 's' }));
    const off = await save(d, withZoom({ enabled: false, apiKey: 'k' }));
    expect(off.zoom).toEqual({ enabled: false, apiKey: 'k', apiSecretSet: true, accountId: '' });
    expect(isConnected(off, 'zoom')).toBe(false);
    const on = await save(d, withZoom({ enabled: true, apiKey: 'k' }));
    expect(isConnected(on, 'zoom')).toBe(true);
  });

  it('forgets a secret sent as null', async () => {
    const d = setup();
    await save(d, { ...allOff, teams: { enabled: true, clientId: 'c', clientSecret: 'teams-secret' } });
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
      { path: 'teams.clientSecret', message: 'To enable Microsoft Teams, enter its Client Secret.' },
      { path: 'googleCalendar.calendarId', message: 'To enable Google Calendar, enter its Calendar ID.' },
    ]);
    expect(d.integrations.items.size).toBe(0);
    expect(d.cipher.sealed).toBe(0);
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
  });
});

describe('connected', () => {
  const view = (over: Partial<IntegrationsView>): IntegrationsView => ({ ...DEFAULT_INTEGRATIONS, ...over });
  it('means switched on with every field present', () => {
    expect(isConnected(view({ teams: { enabled: true, clientId: 'c', clientSecretSet: true } }), 'teams')).toBe(true);
    expect(isConnected(view({ teams: { enabled: true, clientId: 'c', clientSecretSet: false } }), 'teams')).toBe(false);
    expect(isConnected(view({ googleCalendar: { enabled: true, calendarId: 'cal' } }), 'googleCalendar')).toBe(true);
    expect(isConnected(view({ googleCalendar: { enabled: false, calendarId: 'cal' } }), 'googleCalendar')).toBe(false);
  });
});

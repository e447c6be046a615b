import { describe, expect, it } from 'vitest';
import { IntegrationNotConnectedError, ProviderUnavailableError, ValidationError } from '#core/errors.ts';
import {
  CONSENT_STATE_TTL_MS,
  finishGoogleConsent,
  openConsentState,
  ownOriginUrl,
  sealConsentState,
  startGoogleConsent,
} from '#core/integrations/google-consent.ts';
import { getIntegrations, saveIntegrations } from '#core/integrations/integrations.ts';
import type { GoogleConsent } from '#core/live-sessions/ports.ts';
import { testClock } from '#test/functions/fakes/clock.ts';
import { countingCipher, fakeMeetingProviders, memoryIntegrations } from '#test/functions/fakes/integrations.ts';

const APP = 'https://courses.example.com';

/** Google's consent in memory: the state goes into the URL as Google would carry it; codes map to refresh tokens. */
const fakeConsent = () => {
  const codes = new Map<string, string>([['good-code', 'refresh-token-1']]);
  let failure: Error | undefined;
  const consent: GoogleConsent & { failWith(error: Error): void } = {
    consentUrl: (state) => `https://accounts.google.example/o/oauth2/v2/auth?state=${encodeURIComponent(state)}`,
    async exchangeCode(code) {
      if (failure) throw failure;
      const refreshToken = codes.get(code);
      codes.delete(code);
      if (!refreshToken) throw new IntegrationNotConnectedError('google', 'Google refused access: connect Google Calendar again.');
      return { refreshToken };
    },
    failWith(error) {
      failure = error;
    },
  };
  return consent;
};

const setup = () => {
  const google = fakeConsent();
  // The callback checks the calendar, and saving checks every switched-on provider, through the one check: connected.
  const providers = fakeMeetingProviders();
  const deps = {
    consent: async () => google,
    cipher: countingCipher(),
    clock: testClock(),
    appOrigin: APP,
    integrations: memoryIntegrations(),
    providers,
  };
  return { deps, google, providers };
};

const stateIn = (url: string) => new URL(url).searchParams.get('state')!;

describe('the consent state', () => {
  it('opens for the creator it was sealed for, within 10 minutes', async () => {
    const { deps } = setup();
    const state = await sealConsentState(deps, 'creator-1', `${APP}/dashboard/creator/integrations`);
    expect(await openConsentState(deps, state)).toEqual({ creatorId: 'creator-1', returnUrl: `${APP}/dashboard/creator/integrations` });
    deps.clock.advance(CONSENT_STATE_TTL_MS);
    expect(await openConsentState(deps, state)).toBe('expired');
  });

  it('refuses a state whose creator, sealed part or any character was changed', async () => {
    const { deps } = setup();
    const state = await sealConsentState(deps, 'creator-1', `${APP}/x`);
    const [creator, sealed] = [state.slice(0, state.lastIndexOf('.')), state.slice(state.lastIndexOf('.') + 1)];
    expect(await openConsentState(deps, `creator-2.${sealed}`)).toBe('invalid');
    const other = await sealConsentState(deps, 'creator-2', `${APP}/x`);
    expect(await openConsentState(deps, `${creator}.${other.slice(other.lastIndexOf('.') + 1)}`)).toBe('invalid');
    const flipped = sealed.slice(0, 10) + (sealed[10] === 'A' ? 'B' : 'A') + sealed.slice(11);
    expect(await openConsentState(deps, `${creator}.${flipped}`)).toBe('invalid');
    expect(await openConsentState(deps, 'nonsense')).toBe('invalid');
    expect(await openConsentState(deps, '')).toBe('invalid');
  });

  it('accepts only returnUrls on the app origin', () => {
    expect(ownOriginUrl(`${APP}/dashboard/creator/integrations?tab=1`, APP)).toBe(`${APP}/dashboard/creator/integrations?tab=1`);
    expect(ownOriginUrl('/dashboard/creator/integrations', APP)).toBe(`${APP}/dashboard/creator/integrations`);
    expect(ownOriginUrl('//evil.example/x', APP)).toBeUndefined();
    expect(ownOriginUrl('https://evil.example/x', APP)).toBeUndefined();
    expect(ownOriginUrl('https://courses.example.com.evil.example/', APP)).toBeUndefined();
    expect(ownOriginUrl('javascript:alert(1)', APP)).toBeUndefined();
  });
});

describe('connecting Google Calendar', () => {
  it('answers the consent URL; a returnUrl elsewhere is a 400 naming the field', async () => {
    const { deps } = setup();
    const { url } = await startGoogleConsent(deps, { creatorId: 'creator-1', returnUrl: '/dashboard/creator/integrations' });
    expect(url).toMatch(/^https:\/\/accounts\.google\.example\/o\/oauth2\/v2\/auth\?state=creator-1\./);
    const refused = await startGoogleConsent(deps, { creatorId: 'creator-1', returnUrl: 'https://evil.example/' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ details: [{ path: 'returnUrl' }] });
  });

  it('stores the refresh token sealed, switches Google on with its calendar, keeps the other settings and returns connected', async () => {
    const { deps, providers } = setup();
    await saveIntegrations(deps, {
      creatorId: 'creator-1',
      body: { zoom: { enabled: true, apiKey: 'k', apiSecret: 'zoom-secret', accountId: 'a' }, teams: { enabled: false, clientId: '' }, googleCalendar: { enabled: false, calendarId: 'team@group.calendar.google.com' } },
    });
    const { url } = await startGoogleConsent(deps, { creatorId: 'creator-1', returnUrl: `${APP}/dashboard/creator/integrations` });
    const location = await finishGoogleConsent(deps, { code: 'good-code', state: stateIn(url) });
    expect(location).toBe(`${APP}/dashboard/creator/integrations?google=connected`);

    const stored = deps.integrations.items.get('creator-1')!;
    expect(JSON.stringify(stored)).not.toContain('refresh-token-1');
    expect(await deps.cipher.decrypt(stored.googleCalendar.refreshToken!, 'creator-1')).toBe('refresh-token-1');
    expect(stored.googleCalendar).toMatchObject({ enabled: true, calendarId: 'team@group.calendar.google.com', check: { ok: true } });
    expect(stored.zoom).toMatchObject({ enabled: true, apiKey: 'k' });
    expect(providers.checks.filter((c) => c.credentials.provider === 'google')).toEqual([
      { creatorId: 'creator-1', credentials: { provider: 'google', refreshToken: 'refresh-token-1', calendarId: 'team@group.calendar.google.com' } },
    ]);
    // The view never shows the sealed token; a later save of the settings keeps it.
    expect(JSON.stringify(await getIntegrations(deps, 'creator-1'))).not.toContain(stored.googleCalendar.refreshToken!.ciphertext);
    await saveIntegrations(deps, { creatorId: 'creator-1', body: { zoom: { enabled: false, apiKey: '', accountId: '' }, teams: { enabled: false, clientId: '' }, googleCalendar: { enabled: true, calendarId: 'primary' } } });
    expect(deps.integrations.items.get('creator-1')!.googleCalendar.refreshToken).toEqual(stored.googleCalendar.refreshToken);
  });

  it("uses the account's primary calendar when none was chosen, and keeps a failed check's words", async () => {
    const { deps, providers } = setup();
    providers.outcomes.google = { refuse: 'Google Calendar has no calendar with this Calendar ID.' };
    const { url } = await startGoogleConsent(deps, { creatorId: 'creator-9', returnUrl: APP });
    expect(await finishGoogleConsent(deps, { code: 'good-code', state: stateIn(url) })).toBe(`${APP}/?google=connected`);
    expect(deps.integrations.items.get('creator-9')!.googleCalendar).toMatchObject({
      enabled: true,
      calendarId: 'primary',
      check: { ok: false, error: 'Google Calendar has no calendar with this Calendar ID.' },
    });
  });

  it('sends the creator back with the reason, storing nothing, when they cancel, Google refuses the code or is down', async () => {
    const { deps, google } = setup();
    const back = `${APP}/dashboard/creator/integrations`;
    const state = stateIn((await startGoogleConsent(deps, { creatorId: 'creator-1', returnUrl: back })).url);
    expect(await finishGoogleConsent(deps, { error: 'access_denied', state })).toBe(`${back}?google=error&reason=access_denied`);
    expect(await finishGoogleConsent(deps, { code: 'used-or-forged', state })).toBe(`${back}?google=error&reason=refused`);
    google.failWith(new ProviderUnavailableError('google', 'Google Calendar did not answer in time.'));
    expect(await finishGoogleConsent(deps, { code: 'good-code', state })).toBe(`${back}?google=error&reason=unavailable`);
    expect(deps.integrations.items.size).toBe(0);
  });

  it('sends a changed or late state to the integrations screen with the reason, storing nothing', async () => {
    const { deps } = setup();
    const state = stateIn((await startGoogleConsent(deps, { creatorId: 'creator-1', returnUrl: `${APP}/somewhere` })).url);
    expect(await finishGoogleConsent(deps, { code: 'good-code', state: `creator-2${state.slice(state.indexOf('.'))}` })).toBe(
      `${APP}/dashboard/creator/integrations?google=error&reason=invalid_state`,
    );
    expect(await finishGoogleConsent(deps, { code: 'good-code' })).toBe(`${APP}/dashboard/creator/integrations?google=error&reason=invalid_state`);
    deps.clock.advance(CONSENT_STATE_TTL_MS + 1);
    expect(await finishGoogleConsent(deps, { code: 'good-code', state })).toBe(`${APP}/dashboard/creator/integrations?google=error&reason=expired`);
    expect(deps.integrations.items.size).toBe(0);
  });
});

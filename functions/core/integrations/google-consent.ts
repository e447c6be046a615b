import { randomBytes } from 'node:crypto';
import { IntegrationNotConnectedError, ValidationError } from '#core/errors.ts';
import type { ConnectionChecks, IntegrationRepository, StoredIntegrations } from '#core/integrations/ports.ts';
import type { Clock, SealedSecret, SecretCipher } from '#core/ports.ts';

/**
 * Google Calendar by the creator's consent (issue 30, decision 0047; docs/api.md "Live sessions"):
 *   POST /api/integrations/google/connect {returnUrl}  -> {url} of Google's consent screen, with a `state`;
 *   GET  /api/integrations/google/callback?code&state  -> the code exchanged, the refresh token sealed and stored,
 *        then a 302 to returnUrl with `?google=connected` or `?google=error&reason=<reason>`.
 *
 * The `state` is `<creatorId>.<sealed {returnUrl, nonce, expiresAt}>`, sealed with the secrets cipher under the
 * creator's own context: changing any part (the creator id included) makes it fail to open, so the callback, which
 * carries no token of ours, learns who consented and where to go back from nothing but what we wrote. It lives 10
 * minutes. (Not single use: a replayed state needs a fresh code, and Google's code is itself single use, issued only
 * to the account that pressed Allow.)
 */
export const CONSENT_STATE_TTL_MS = 10 * 60_000;

/** The reasons the callback sends back in `?google=error&reason=`. */
export type ConsentFailure = 'access_denied' | 'invalid_state' | 'expired' | 'refused' | 'unavailable';

/** Where a callback whose state cannot be read sends the creator: the integrations screen. */
export const INTEGRATIONS_SCREEN_PATH = '/dashboard/creator/integrations';

/**
 * Google's consent as this use case needs it: core/live-sessions/ports.ts `GoogleConsent` (adapters/
 * google-calendar-meetings.ts `googleConsent`), named here by shape (a domain does not import another's ports).
 */
export interface ConsentScreen {
  consentUrl(state: string): string;
  /** IntegrationNotConnectedError when Google refuses the code; anything else is Google being unavailable. */
  exchangeCode(code: string): Promise<{ refreshToken: string }>;
}

export interface GoogleConsentDeps {
  /** The consent of the platform's Google client (built lazily: reading its secret is a call). */
  consent: () => Promise<ConsentScreen>;
  cipher: SecretCipher;
  clock: Clock;
  /** The app's origin: the only place returnUrl may point to. */
  appOrigin: string;
}

export interface GoogleCallbackDeps extends GoogleConsentDeps {
  integrations: IntegrationRepository;
  /**
   * The check run once the token is stored ("Connected" means a token and one API call): the same check a save and
   * `POST /api/integrations/google/test` run (core/integrations/connections.ts), with the new consent's credentials.
   */
  providers: ConnectionChecks;
}

interface StatePayload {
  returnUrl: string;
  nonce: string;
  expiresAt: number;
}

const encode = (sealed: SealedSecret): string => Buffer.from(JSON.stringify(sealed)).toString('base64url');

const decode = (text: string): SealedSecret | undefined => {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<SealedSecret>;
    return typeof value.ciphertext === 'string' && typeof value.iv === 'string' && typeof value.tag === 'string' && typeof value.encryptedDataKey === 'string'
      ? (value as SealedSecret)
      : undefined;
  } catch {
    return undefined;
  }
};

/** A returnUrl on the app's own origin (an absolute URL, or a path there), as an absolute URL; else undefined. */
export const ownOriginUrl = (returnUrl: string, appOrigin: string): string | undefined => {
  try {
    const origin = new URL(appOrigin).origin;
    // A path alone is on our origin; `//evil.example` is not a path.
    const url = returnUrl.startsWith('/') && !returnUrl.startsWith('//') ? new URL(returnUrl, origin) : new URL(returnUrl);
    return url.origin === origin ? url.toString() : undefined;
  } catch {
    return undefined;
  }
};

/** The state the callback will trust: the creator, the way back, a nonce, an expiry; sealed for this creator. */
export const sealConsentState = async (deps: Pick<GoogleConsentDeps, 'cipher' | 'clock'>, creatorId: string, returnUrl: string): Promise<string> => {
  const payload: StatePayload = { returnUrl, nonce: randomBytes(12).toString('base64url'), expiresAt: deps.clock.now().getTime() + CONSENT_STATE_TTL_MS };
  return `${creatorId}.${encode(await deps.cipher.encrypt(JSON.stringify(payload), creatorId))}`;
};

/** The creator and returnUrl of a state we sealed; 'invalid' when any part was changed, 'expired' past its 10 minutes. */
export const openConsentState = async (
  deps: Pick<GoogleConsentDeps, 'cipher' | 'clock'>,
  state: string,
): Promise<{ creatorId: string; returnUrl: string } | 'invalid' | 'expired'> => {
  const cut = state.lastIndexOf('.');
  const creatorId = state.slice(0, cut);
  const sealed = cut > 0 ? decode(state.slice(cut + 1)) : undefined;
  if (!sealed) return 'invalid';
  let payload: StatePayload;
  try {
    payload = JSON.parse(await deps.cipher.decrypt(sealed, creatorId)) as StatePayload;
  } catch {
    return 'invalid';
  }
  if (typeof payload.returnUrl !== 'string' || typeof payload.expiresAt !== 'number') return 'invalid';
  if (payload.expiresAt <= deps.clock.now().getTime()) return 'expired';
  return { creatorId, returnUrl: payload.returnUrl };
};

/** POST /api/integrations/google/connect: the consent screen's URL; a returnUrl off the app's origin is a 400. */
export const startGoogleConsent = async (deps: GoogleConsentDeps, input: { creatorId: string; returnUrl: string }): Promise<{ url: string }> => {
  const returnUrl = ownOriginUrl(input.returnUrl, deps.appOrigin);
  if (!returnUrl) {
    throw new ValidationError('Give a returnUrl on this site: Google sends you back there.', [{ path: 'returnUrl', message: 'Use an address on this site.' }]);
  }
  const state = await sealConsentState(deps, input.creatorId, returnUrl);
  return { url: (await deps.consent()).consentUrl(state) };
};

const withResult = (returnUrl: string, result: { google: 'connected' } | { google: 'error'; reason: ConsentFailure }): string => {
  const url = new URL(returnUrl);
  url.searchParams.set('google', result.google);
  if (result.google === 'error') url.searchParams.set('reason', result.reason);
  else url.searchParams.delete('reason');
  return url.toString();
};

/** Google switched on with the new consent; the calendar chosen before kept ('primary', the account's own, otherwise). */
const withConsent = (stored: StoredIntegrations | undefined, refreshToken: SealedSecret, at: string): StoredIntegrations => ({
  zoom: stored?.zoom ?? { enabled: false, apiKey: '', accountId: '', apiSecret: null },
  teams: stored?.teams ?? { enabled: false, tenantId: '', clientId: '', clientSecret: null, organizerEmail: '' },
  googleCalendar: { enabled: true, calendarId: stored?.googleCalendar.calendarId || 'primary', refreshToken },
  updatedAt: at,
});

/**
 * GET /api/integrations/google/callback: where the creator goes next (always a redirect: a person is at the other
 * end). A state that does not open sends them to the integrations screen; every other outcome to their returnUrl.
 */
export const finishGoogleConsent = async (
  deps: GoogleCallbackDeps,
  query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
): Promise<string> => {
  const opened = query.state ? await openConsentState(deps, query.state) : 'invalid';
  if (typeof opened === 'string') {
    return withResult(new URL(INTEGRATIONS_SCREEN_PATH, new URL(deps.appOrigin).origin).toString(), { google: 'error', reason: opened === 'expired' ? 'expired' : 'invalid_state' });
  }
  const back = (result: Parameters<typeof withResult>[1]) => withResult(opened.returnUrl, result);
  if (query.error || !query.code) return back({ google: 'error', reason: 'access_denied' });

  let refreshToken: string;
  try {
    ({ refreshToken } = await (await deps.consent()).exchangeCode(query.code));
  } catch (error) {
    return back({ google: 'error', reason: error instanceof IntegrationNotConnectedError ? 'refused' : 'unavailable' });
  }
  const at = deps.clock.now().toISOString();
  const stored = withConsent(await deps.integrations.get(opened.creatorId), await deps.cipher.encrypt(refreshToken, opened.creatorId), at);
  // "Connected" is a token and one call that worked: the calendar read once, its outcome kept with the consent.
  const check = await deps.providers
    .check(opened.creatorId, { provider: 'google', refreshToken, calendarId: stored.googleCalendar.calendarId })
    .then(
      () => ({ ok: true, checkedAt: at }),
      (error: unknown) => ({ ok: false, error: error instanceof Error ? error.message : 'Google Calendar could not be reached.', checkedAt: at }),
    );
  await deps.integrations.put(opened.creatorId, { ...stored, googleCalendar: { ...stored.googleCalendar, check } });
  return back({ google: 'connected' });
};

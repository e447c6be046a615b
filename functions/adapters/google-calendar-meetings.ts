import { createHash } from 'node:crypto';
import { auth as googleAuth, calendar_v3 } from '@googleapis/calendar';
import { clientPolicies } from '#adapters/client-policy.ts';
import { secretValue } from '#adapters/secrets.ts';
import { TokenCache } from '#adapters/token-cache.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import type { GoogleConsent, MeetingCredentials, MeetingDetails, MeetingProvider, ProviderMeeting } from '#core/live-sessions/ports.ts';
import { required } from '#functions/config.ts';

/**
 * Google Calendar through the creator's consent (issue 30, decision 0047): the official `@googleapis/calendar` client
 * with `google-auth-library`'s OAuth2Client (re-exported by it as `auth.OAuth2`), both pointed at the URLs of functions/config.ts (Google's own in AWS, the
 * stand-in locally, lib/local/google/).
 *
 * - The access token comes from the creator's refresh token (their consent) and is kept in the token cache
 *   (adapters/token-cache.ts) until a minute before it expires: OAuth2Client only caches within its own instance,
 *   and an instance lives for one `connect`. A 401 from Calendar drops it and asks once more.
 * - The meeting is a Calendar event with a Meet link (`conferenceData.createRequest`, `conferenceDataVersion=1`). Its
 *   id is chosen by us from the session id (`eventIdOf`), so a create retried after a lost answer or a failed save
 *   answers 409 `duplicate` and the existing event is adopted: never two events for one session.
 * - Refusals (an `invalid_grant`: consent revoked or expired; `invalid_client`: the platform's client secret wrong; a
 *   401 after a fresh token; 403; 404 of the calendar) are IntegrationNotConnectedError in plain words; a 5xx, a
 *   timeout (10 s, no retry by the client: `clientPolicies.google`) or a cut connection ProviderUnavailableError.
 */

/** The scope asked at consent: events on the creator's calendars, nothing else of their account. */
export const GOOGLE_CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.events';

const REFUSED = 'Google refused access: connect Google Calendar again.';

export interface GoogleClientSettings {
  clientId: string;
  clientSecret: string;
  /** The consent screen (https://accounts.google.com/o/oauth2/v2/auth). */
  authUrl: string;
  /** The token endpoint (https://oauth2.googleapis.com/token). */
  tokenUrl: string;
  /** Calendar v3's base (https://www.googleapis.com/calendar/v3). */
  calendarApiUrl: string;
  /** Where the consent screen sends the creator back (the platform's callback route). */
  redirectUri: string;
}

/** The callback route's URL on the app's origin: Google's client must list it as an authorised redirect URI. */
export const googleRedirectUri = (appOrigin: string): string => `${appOrigin.replace(/\/$/, '')}/api/integrations/google/callback`;

/** The platform's OAuth client (its secret read through the Parameters and Secrets extension) and Google's URLs. */
export const googleClientSettings = async (): Promise<GoogleClientSettings> => ({
  clientId: required('GOOGLE_OAUTH_CLIENT_ID'),
  clientSecret: await secretValue(required('GOOGLE_OAUTH_CLIENT_SECRET_ID')),
  authUrl: required('GOOGLE_OAUTH_URL'),
  tokenUrl: required('GOOGLE_TOKEN_URL'),
  calendarApiUrl: required('GOOGLE_CALENDAR_API_URL'),
  redirectUri: googleRedirectUri(required('APP_ORIGIN')),
});

/**
 * The event id of a session: Google accepts base32hex (a-v, 0-9), 5 to 1024 characters. A ULID's Crockford base32 is
 * not base32hex, so the id is the SHA-256 of the session id in base32hex (52 characters): stable, so a retry names
 * the same event.
 */
export const eventIdOf = (sessionId: string): string => {
  const bytes = createHash('sha256').update(`session:${sessionId}`).digest();
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
};

interface GoogleFailure {
  status?: number;
  /** OAuth's `error` (invalid_grant, invalid_client) or Calendar's first `errors[].reason`. */
  reason?: string;
  message: string;
}

/** What gaxios threw, read without trusting its shape. */
const failureOf = (error: unknown): GoogleFailure => {
  const e = error as { status?: unknown; code?: unknown; message?: unknown; response?: { status?: unknown; data?: unknown } };
  const status = typeof e?.response?.status === 'number' ? e.response.status : typeof e?.status === 'number' ? e.status : undefined;
  const data = e?.response?.data as { error?: unknown; error_description?: unknown } | undefined;
  let reason: string | undefined;
  if (typeof data?.error === 'string') reason = data.error;
  else if (data?.error && typeof data.error === 'object') {
    const reasons = (data.error as { errors?: { reason?: unknown }[] }).errors;
    reason = typeof reasons?.[0]?.reason === 'string' ? reasons[0].reason : undefined;
  }
  return { ...(status !== undefined ? { status } : {}), ...(reason !== undefined ? { reason } : {}), message: typeof e?.message === 'string' ? e.message : String(error) };
};

/** A failure Google answered about the credentials or the calendar: the creator can act on it. */
const refusal = (failure: GoogleFailure): string | undefined => {
  if (failure.reason === 'invalid_client' || failure.reason === 'unauthorized_client') {
    return 'Google refused the platform\u2019s OAuth client: ask the platform\u2019s operator to check its Google client id and secret.';
  }
  if (failure.reason === 'invalid_grant' || failure.status === 401) return REFUSED;
  if (failure.status === 403) return 'Google refused access to this calendar: connect Google Calendar again and allow access to your calendar events.';
  if (failure.status === 404 && failure.reason === 'notFound') return 'Google Calendar has no calendar with this Calendar ID: check the Calendar ID (or use "primary").';
  if (failure.status === 400 && (failure.reason === 'invalid_request' || failure.reason === 'unsupported_grant_type')) return REFUSED;
  return undefined;
};

const unavailable = (failure: GoogleFailure, cause: unknown): ProviderUnavailableError =>
  new ProviderUnavailableError(
    'google',
    failure.status !== undefined ? `Google Calendar answered ${failure.status}: try again in a few minutes.` : 'Google Calendar did not answer in time: try again in a few minutes.',
    { cause },
  );

/** Google's answer in the product's terms: a refusal to connect again, or Google being unavailable. */
const mapped = (error: unknown): Error => {
  if (error instanceof IntegrationNotConnectedError || error instanceof ProviderUnavailableError) return error;
  const failure = failureOf(error);
  const words = refusal(failure);
  return words ? new IntegrationNotConnectedError('google', words) : unavailable(failure, error);
};

const transport = { timeout: clientPolicies.google.requestTimeoutMs, retry: false } as const;

/** google-auth-library's OAuth2Client, as `@googleapis/calendar` re-exports it (no direct dependency on the library). */
type OAuth2Client = InstanceType<typeof googleAuth.OAuth2>;

const oauthClient = (settings: GoogleClientSettings): OAuth2Client =>
  new googleAuth.OAuth2({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    redirectUri: settings.redirectUri,
    endpoints: { oauth2AuthBaseUrl: settings.authUrl, oauth2TokenUrl: settings.tokenUrl, oauth2RevokeUrl: settings.tokenUrl.replace(/\/token$/, '/revoke') },
    transporterOptions: transport,
  });

/** Calendar v3's root URL for the client, which adds `/calendar/v3/...` itself. */
const rootOf = (calendarApiUrl: string): string => `${calendarApiUrl.replace(/\/+$/, '').replace(/\/calendar\/v3$/, '')}/`;

/** Google's consent (OAuth 2.0 authorization code with offline access) for the platform's client. */
export const googleConsentWith = (settings: GoogleClientSettings): GoogleConsent => ({
  consentUrl: (state) =>
    oauthClient(settings).generateAuthUrl({
      access_type: 'offline',
      // Asked every time, so Google gives a refresh token even to a creator who consented before.
      prompt: 'consent',
      scope: [GOOGLE_CALENDAR_SCOPE],
      include_granted_scopes: false,
      state,
    }),
  async exchangeCode(code) {
    try {
      const { tokens } = await oauthClient(settings).getToken(code);
      if (!tokens.refresh_token) throw new IntegrationNotConnectedError('google', 'Google gave no lasting access: connect Google Calendar again and allow access.');
      return { refreshToken: tokens.refresh_token };
    } catch (error) {
      throw mapped(error);
    }
  },
});

/** The consent of the deployment's client (its secret read on first use). */
export const googleConsent = async (): Promise<GoogleConsent> => googleConsentWith(await googleClientSettings());

const sharedCache = new TokenCache();

const meetingOf = (event: calendar_v3.Schema$Event): ProviderMeeting => {
  const video = event.conferenceData?.entryPoints?.find((entry) => entry.entryPointType === 'video')?.uri;
  const joinUrl = event.hangoutLink ?? video ?? event.htmlLink ?? '';
  return { meetingId: event.id ?? '', joinUrl, hostUrl: joinUrl };
};

const eventBody = (details: MeetingDetails): calendar_v3.Schema$Event => {
  const end = new Date(Date.parse(details.startsAt) + details.durationMinutes * 60_000).toISOString();
  return {
    summary: details.title,
    description: details.description,
    start: { dateTime: details.startsAt, timeZone: details.timeZone },
    end: { dateTime: end, timeZone: details.timeZone },
  };
};

/**
 * The provider of one creator's consent, with the platform's client settings given (tests point it anywhere). Tokens
 * are cached in `cache` by creator and refresh token.
 */
export const googleCalendarMeetingsWith = (
  creatorId: string,
  credentials: Extract<MeetingCredentials, { provider: 'google' }>,
  settings: Promise<GoogleClientSettings> | GoogleClientSettings,
  cache: TokenCache = sharedCache,
): MeetingProvider => {
  const calendarId = credentials.calendarId || 'primary';
  let key: string | undefined;

  const accessToken = async (s: GoogleClientSettings): Promise<string> => {
    key = TokenCache.key(creatorId, 'google', s.clientId, credentials.refreshToken);
    return cache.get(key, async () => {
      const client = oauthClient(s);
      client.setCredentials({ refresh_token: credentials.refreshToken });
      const { token, res } = await client.getAccessToken();
      if (!token) throw new IntegrationNotConnectedError('google', REFUSED);
      const expiry = client.credentials.expiry_date;
      const expiresIn = Number((res?.data as { expires_in?: unknown } | undefined)?.expires_in);
      return { accessToken: token, expiresAt: expiry ?? Date.now() + (Number.isFinite(expiresIn) ? expiresIn : 3600) * 1000 };
    });
  };

  /** One Calendar call with a cached token; a 401 drops the token and tries once more with a fresh one. */
  const call = async <T>(run: (api: calendar_v3.Calendar) => Promise<T>): Promise<T> => {
    const s = await settings;
    for (let attempt = 1; ; attempt++) {
      try {
        const auth = oauthClient(s);
        auth.setCredentials({ access_token: await accessToken(s) });
        return await run(new calendar_v3.Calendar({ auth, rootUrl: rootOf(s.calendarApiUrl), ...transport }));
      } catch (error) {
        if (attempt === 1 && failureOf(error).status === 401 && key) {
          cache.forget(key);
          continue;
        }
        throw mapped(error);
      }
    }
  };

  /** The status of a Calendar answer that is an error, else undefined (the error itself goes up mapped). */
  const statusOf = (error: unknown): number | undefined => failureOf(error).status;

  const getEvent = (api: calendar_v3.Calendar, eventId: string) => api.events.get({ calendarId, eventId }).then((r) => r.data);

  return {
    provider: 'google',

    async check() {
      await call((api) => api.calendars.get({ calendarId }));
    },

    async createMeeting(details) {
      const id = eventIdOf(details.sessionId);
      return call(async (api) => {
        try {
          const created = await api.events.insert({
            calendarId,
            conferenceDataVersion: 1,
            requestBody: {
              id,
              ...eventBody(details),
              conferenceData: { createRequest: { requestId: id, conferenceSolutionKey: { type: 'hangoutsMeet' } } },
            },
          });
          return meetingOf(created.data);
        } catch (error) {
          // An earlier attempt made it (its answer lost, or its save failed): adopt it, brought up to date.
          if (statusOf(error) !== 409) throw error;
          const existing = await getEvent(api, id);
          if (existing.status === 'cancelled') throw new ProviderUnavailableError('google', 'Google Calendar still holds a cancelled event for this session: schedule it again.');
          const updated = await api.events.patch({ calendarId, eventId: id, requestBody: eventBody(details) });
          return meetingOf({ ...existing, ...updated.data });
        }
      });
    },

    async findMeeting(sessionId) {
      return call(async (api) => {
        try {
          const event = await getEvent(api, eventIdOf(sessionId));
          return event.status === 'cancelled' ? undefined : meetingOf(event);
        } catch (error) {
          if (statusOf(error) === 404 || statusOf(error) === 410) return undefined;
          throw error;
        }
      });
    },

    async updateMeeting(meetingId, details) {
      return call(async (api) => {
        try {
          await api.events.patch({ calendarId, eventId: meetingId, requestBody: eventBody(details) });
          return 'updated' as const;
        } catch (error) {
          if (statusOf(error) === 404 || statusOf(error) === 410) return 'gone' as const;
          throw error;
        }
      });
    },

    async deleteMeeting(meetingId) {
      await call(async (api) => {
        try {
          await api.events.delete({ calendarId, eventId: meetingId });
        } catch (error) {
          if (statusOf(error) === 404 || statusOf(error) === 410) return;
          throw error;
        }
      });
    },
  };
};

/** The provider of one creator's consent with the deployment's client settings (issue 30's composition). */
export const googleCalendarMeetings = (creatorId: string, credentials: Extract<MeetingCredentials, { provider: 'google' }>): MeetingProvider => {
  const settings = googleClientSettings();
  // Read lazily by the first call; a failure to read the secret surfaces there, not here.
  settings.catch(() => undefined);
  return googleCalendarMeetingsWith(creatorId, credentials, settings);
};

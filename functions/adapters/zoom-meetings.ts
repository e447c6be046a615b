import * as z from 'zod';
import { clientPolicies } from '#adapters/client-policy.ts';
import { TokenCache } from '#adapters/token-cache.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingCredentials, MeetingDetails, MeetingProvider, ProviderMeeting } from '#core/live-sessions/ports.ts';
import { required } from '#functions/config.ts';

/**
 * Zoom through a creator's Server-to-Server OAuth app (issue 30, decision 0041): plain `fetch` with zod schemas of
 * Zoom's answers (Zoom keeps no Node SDK of its REST API worth depending on). A token comes from
 * `POST {oauthUrl}/oauth/token?grant_type=account_credentials&account_id=...` with HTTP Basic client id:secret (the
 * spec's API Key and API Secret) and is cached per creator and credentials (adapters/token-cache.ts); an API call
 * answered 401 drops it and is made once more with a fresh one. Every HTTP call has 10 s, every operation 20 s
 * (adapters/client-policy.ts `meetings`).
 *
 * Zoom has no client-chosen meeting id, so a meeting carries its session id in the agenda (`Session id: <id>` on its
 * last line): `findMeeting` lists the host's upcoming meetings and adopts the one carrying it.
 *
 * Errors: Zoom refusing the credentials or a scope is IntegrationNotConnectedError with Zoom's reason in plain words;
 * Zoom down, timing out, answering 5xx or something unreadable is ProviderUnavailableError.
 */
export interface ZoomOptions {
  /** Zoom's REST API base, https://api.zoom.us/v2 in AWS. */
  apiUrl: string;
  /** Where `/oauth/token` is, https://zoom.us in AWS. */
  oauthUrl: string;
  fetch?: typeof fetch;
  /** Per HTTP call (default 10 s, clientPolicies.meetings). */
  timeoutMs?: number;
  /** Per operation: token, call, and the retry after a 401 together (default 20 s). */
  deadlineMs?: number;
  cache?: TokenCache;
  now?: () => number;
}

type ZoomCredentials = Extract<MeetingCredentials, { provider: 'zoom' }>;

/** The longest agenda Zoom takes. */
const AGENDA_MAX = 2000;

const tokenAnswer = z.object({ access_token: z.string().min(1), token_type: z.string(), expires_in: z.number().positive() });
const tokenRefusal = z.object({ reason: z.string().optional(), error: z.string().optional() });
const apiError = z.object({ code: z.number().optional(), message: z.string().optional() });
const meetingAnswer = z.object({ id: z.number(), join_url: z.string().min(1), start_url: z.string().min(1), agenda: z.string().optional() });
const meetingList = z.object({
  meetings: z.array(z.object({ id: z.number(), agenda: z.string().optional() })),
  next_page_token: z.string().optional(),
});

/** The line that marks a meeting as this session's (adoption on retry). */
export const sessionMarker = (sessionId: string): string => `Session id: ${sessionId}`;

/** The description, cut to leave room for the marker, then the marker on its own line. */
export const zoomAgenda = (details: MeetingDetails): string => {
  const marker = sessionMarker(details.sessionId);
  const room = AGENDA_MAX - marker.length - 2;
  const description = details.description.trim().slice(0, Math.max(0, room));
  return description ? `${description}\n\n${marker}` : marker;
};

/** Zoom wants UTC without milliseconds: 2026-12-01T10:00:00Z. */
const zoomTime = (iso: string): string => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

const meetingBody = (details: MeetingDetails) => ({
  topic: details.title.slice(0, 200),
  type: 2,
  start_time: zoomTime(details.startsAt),
  duration: details.durationMinutes,
  timezone: details.timeZone,
  agenda: zoomAgenda(details),
});

const unavailable = (message: string, cause?: unknown) => new ProviderUnavailableError('zoom', message, cause === undefined ? undefined : { cause });

const readJson = async (response: Response): Promise<unknown> => {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** What Zoom's token endpoint refusing means to the creator, in plain words with Zoom's own reason. */
export const tokenRefusalWords = (status: number, body: unknown): string => {
  const parsed = tokenRefusal.safeParse(body);
  const reason = parsed.success ? (parsed.data.reason ?? parsed.data.error ?? `HTTP ${status}`) : `HTTP ${status}`;
  const error = parsed.success ? parsed.data.error : undefined;
  if (error === 'invalid_client') {
    return `Zoom refused the API Key or API Secret ("${reason}"): check the Client ID and Client Secret of your Server-to-Server OAuth app.`;
  }
  if (/account/i.test(reason)) return `Zoom refused the Account ID ("${reason}"): check the Account ID of your Server-to-Server OAuth app.`;
  return `Zoom refused the connection ("${reason}"): check that your Server-to-Server OAuth app is activated and its credentials are current.`;
};

const defaultCache = new TokenCache();

export const zoomMeetingsWith =
  (options: ZoomOptions) =>
  (creatorId: string, credentials: ZoomCredentials): MeetingProvider => {
    const doFetch = options.fetch ?? fetch;
    const timeoutMs = options.timeoutMs ?? clientPolicies.meetings.requestTimeoutMs;
    const deadlineMs = options.deadlineMs ?? clientPolicies.meetings.callDeadlineMs;
    const cache = options.cache ?? defaultCache;
    const now = options.now ?? Date.now;
    const key = TokenCache.key(creatorId, 'zoom', credentials.accountId, credentials.clientId, credentials.clientSecret);
    const apiUrl = options.apiUrl.replace(/\/+$/, '');
    const oauthUrl = options.oauthUrl.replace(/\/+$/, '');

    /** One HTTP call with its own deadline; a network failure or the deadline is Zoom being unavailable. */
    const call = async (url: string, init: RequestInit, what: string, deadline: AbortSignal): Promise<Response> => {
      if (deadline.aborted) throw unavailable(`Zoom did not answer within ${deadlineMs / 1000} s (${what}).`);
      try {
        return await doFetch(url, { ...init, signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), deadline]) });
      } catch (error) {
        const name = (error as Error)?.name;
        if (deadline.aborted) throw unavailable(`Zoom did not answer within ${deadlineMs / 1000} s (${what}).`, error);
        if (name === 'TimeoutError' || name === 'AbortError') throw unavailable(`Zoom did not answer within ${timeoutMs / 1000} s (${what}).`, error);
        throw unavailable(`Zoom could not be reached (${what}).`, error);
      }
    };

    const fetchToken = async (deadline: AbortSignal) => {
      const url = `${oauthUrl}/oauth/token?grant_type=account_credentials&account_id=${encodeURIComponent(credentials.accountId)}`;
      const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
      const response = await call(url, { method: 'POST', headers: { authorization: `Basic ${basic}`, accept: 'application/json' } }, 'token', deadline);
      const body = await readJson(response);
      if (response.status >= 500) throw unavailable(`Zoom's token endpoint answered ${response.status}.`);
      if (!response.ok) throw new IntegrationNotConnectedError('zoom', tokenRefusalWords(response.status, body));
      const token = tokenAnswer.safeParse(body);
      if (!token.success) throw unavailable("Zoom's token endpoint answered something unreadable.");
      return { accessToken: token.data.access_token, expiresAt: now() + token.data.expires_in * 1000 };
    };

    /** An API call with the cached token; a 401 drops the token and tries once more with a fresh one. */
    const api = async (deadline: AbortSignal, method: string, path: string, what: string, body?: unknown): Promise<Response> => {
      const attempt = async () => {
        const token = await cache.get(key, () => fetchToken(deadline));
        return call(
          `${apiUrl}${path}`,
          {
            method,
            headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          },
          what,
          deadline,
        );
      };
      let response = await attempt();
      if (response.status === 401) {
        await response.body?.cancel();
        cache.forget(key);
        response = await attempt();
      }
      if (response.status >= 500) throw unavailable(`Zoom answered ${response.status} (${what}).`);
      if (response.status === 401 || response.status === 403 || (response.status === 400 && (await peekCode(response)) === 4711)) {
        const error = apiError.safeParse(await readJson(response));
        const reason = (error.success && error.data.message) || `HTTP ${response.status}`;
        throw new IntegrationNotConnectedError(
          'zoom',
          `Zoom refused the request ("${reason}"): check that your Server-to-Server OAuth app is activated and has the scopes user:read:admin, meeting:read:admin and meeting:write:admin.`,
        );
      }
      return response;
    };

    /** A 4xx Zoom gave for a request the adapter made (not the credentials'): unexpected, so the provider failed. */
    const failed = async (response: Response, what: string): Promise<never> => {
      const error = apiError.safeParse(await readJson(response));
      const reason = (error.success && error.data.message) || `HTTP ${response.status}`;
      throw unavailable(`Zoom refused ${what}: ${reason}`);
    };

    const parsed = async <T>(response: Response, schema: z.ZodType<T>, what: string): Promise<T> => {
      const result = schema.safeParse(await readJson(response));
      if (!result.success) throw unavailable(`Zoom answered something unreadable (${what}).`);
      return result.data;
    };

    const meetingOf = (meeting: z.infer<typeof meetingAnswer>): ProviderMeeting => ({
      meetingId: String(meeting.id),
      joinUrl: meeting.join_url,
      hostUrl: meeting.start_url,
    });

    const meetingPath = (meetingId: string) => `/meetings/${encodeURIComponent(meetingId)}`;

    return {
      provider: 'zoom',

      async check() {
        const response = await api(AbortSignal.timeout(deadlineMs), 'GET', '/users/me', 'the user read');
        if (!response.ok) await failed(response, 'the user read');
        await response.body?.cancel();
      },

      async createMeeting(details) {
        const response = await api(AbortSignal.timeout(deadlineMs), 'POST', '/users/me/meetings', 'the meeting creation', meetingBody(details));
        if (!response.ok) await failed(response, 'the meeting');
        return meetingOf(await parsed(response, meetingAnswer, 'the meeting created'));
      },

      async findMeeting(sessionId) {
        const marker = sessionMarker(sessionId);
        const deadline = AbortSignal.timeout(deadlineMs);
        let pageToken = '';
        for (let page = 0; page < 20; page++) {
          const query = `?type=upcoming&page_size=300${pageToken ? `&next_page_token=${encodeURIComponent(pageToken)}` : ''}`;
          const response = await api(deadline, 'GET', `/users/me/meetings${query}`, 'the meeting list');
          if (!response.ok) await failed(response, 'the meeting list');
          const list = await parsed(response, meetingList, 'the meeting list');
          const found = list.meetings.find((meeting) => (meeting.agenda ?? '').split('\n').some((line) => line.trim() === marker));
          if (found) {
            // The list carries no start_url: read the meeting itself.
            const one = await api(deadline, 'GET', meetingPath(String(found.id)), 'the meeting read');
            if (one.status === 404) return undefined;
            if (!one.ok) await failed(one, 'the meeting read');
            return meetingOf(await parsed(one, meetingAnswer, 'the meeting read'));
          }
          pageToken = list.next_page_token ?? '';
          if (!pageToken) return undefined;
        }
        return undefined;
      },

      async updateMeeting(meetingId, details) {
        const response = await api(AbortSignal.timeout(deadlineMs), 'PATCH', meetingPath(meetingId), 'the meeting update', meetingBody(details));
        if (response.status === 404) return 'gone';
        if (!response.ok) await failed(response, 'the meeting update');
        await response.body?.cancel();
        return 'updated';
      },

      async deleteMeeting(meetingId) {
        const response = await api(AbortSignal.timeout(deadlineMs), 'DELETE', meetingPath(meetingId), 'the meeting deletion');
        if (response.status === 404) return;
        if (!response.ok) await failed(response, 'the meeting deletion');
        await response.body?.cancel();
      },
    };
  };

/** Zoom's error code of a 400 without consuming the answer (a clone is read). */
const peekCode = async (response: Response): Promise<number | undefined> => {
  const body = apiError.safeParse(await readJson(response.clone()));
  return body.success ? body.data.code : undefined;
};

/** The adapter with the URLs of functions/config.ts (the real Zoom in AWS, the stand-in locally). */
export const zoomMeetings = (creatorId: string, credentials: ZoomCredentials): MeetingProvider =>
  zoomMeetingsWith({ apiUrl: required('ZOOM_API_URL'), oauthUrl: required('ZOOM_OAUTH_URL') })(creatorId, credentials);

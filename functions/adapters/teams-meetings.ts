import {
  ConfidentialClientApplication,
  LogLevel,
  ServerError,
  type AuthError,
  type INetworkModule,
  type NetworkRequestOptions,
  type NetworkResponse,
} from '@azure/msal-node';
import { Client, GraphError, HTTPMessageHandler, type AuthenticationProvider, type Context, type GraphRequest, type Middleware } from '@microsoft/microsoft-graph-client';
import * as z from 'zod';
import { TokenCache } from '#adapters/token-cache.ts';
import { required } from '#functions/config.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingCredentials, MeetingDetails, MeetingProvider, ProviderMeeting } from '#core/live-sessions/ports.ts';

/**
 * Microsoft Teams meetings through Microsoft Graph (issue 30; decision 0046), with the creator's own app registration
 * (tenant, client id and secret: the client-credentials grant, application permission Calendars.ReadWrite with admin
 * consent) and the organiser's mailbox. A session is an event in the organiser's calendar with a Teams meeting
 * (`isOnlineMeeting`, `onlineMeetingProvider: "teamsForBusiness"`): the creator sees it in Outlook and Teams, and
 * `onlineMeeting.joinUrl` is the link for learners and host alike.
 *
 * - Tokens: `@azure/msal-node`'s ConfidentialClientApplication, given the authority's metadata (no discovery round
 *   trip) and a network client of our own (fetch, 10 s, and the authority's host mapped to MICROSOFT_LOGIN_URL: MSAL
 *   accepts only https authorities, the local stand-in is http). Cached per creator and credentials (token-cache.ts).
 * - Graph: `@microsoft/microsoft-graph-client` with a middleware chain of our own: the bearer token (the SDK's own
 *   AuthenticationHandler sends tokens to https hosts only) and a 10 s timeout, then the SDK's HTTP handler. No retry
 *   handler: a 401 is made once more with a fresh token, anything else is the use case's to retry.
 * - Idempotent create: `transactionId` = the session id, and the session id in a single-value extended property,
 *   which `findMeeting` filters on (a meeting whose save failed is adopted on retry).
 * - Errors: a refusal (AADSTS codes, Graph 401/403/404 on the organiser) is IntegrationNotConnectedError in plain
 *   words; 5xx, 429, a timeout or no answer is ProviderUnavailableError.
 */

const tokens = new TokenCache();
/** Per HTTP call, as issue 30 asks of every provider (the functions that call them are 'heavy': 30 s). */
const REQUEST_TIMEOUT_MS = 10_000;
const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
/** The named property (PS_PUBLIC_STRINGS) that carries the platform's session id on the event. */
export const SESSION_PROPERTY_ID = 'String {00020329-0000-0000-C000-000000000046} Name coursePlatformSessionId';
const TEAMS = 'teamsForBusiness';

export interface TeamsMeetingsOptions {
  /** Graph's base (default GRAPH_API_URL) and Microsoft identity's (default MICROSOFT_LOGIN_URL). */
  graphUrl?: string;
  loginUrl?: string;
  /** Per HTTP call (default 10 s). */
  timeoutMs?: number;
  cache?: TokenCache;
}

const eventSchema = z.object({
  id: z.string().min(1),
  onlineMeeting: z.object({ joinUrl: z.string().min(1).optional() }).nullish(),
});
const eventListSchema = z.object({ value: z.array(eventSchema) });
const calendarSchema = z.object({ allowedOnlineMeetingProviders: z.array(z.string()).optional() });

/** A tenant is its directory id (a GUID) or one of its domains. */
const tenantPattern = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+)$/i;

const notConnected = (message: string) => new IntegrationNotConnectedError('teams', message);
const unavailable = (message: string, cause?: unknown) => new ProviderUnavailableError('teams', message, cause === undefined ? undefined : { cause });

/**
 * MSAL's HTTP client: fetch with a timeout, the https authority MSAL insists on mapped to the configured identity URL
 * (the same URL in AWS; the stand-in's http:// one locally).
 */
class FetchNetworkClient implements INetworkModule {
  constructor(
    private readonly authorityOrigin: string,
    private readonly targetOrigin: string,
    private readonly timeoutMs: number,
  ) {}

  sendGetRequestAsync<T>(url: string, options?: NetworkRequestOptions): Promise<NetworkResponse<T>> {
    return this.send<T>('GET', url, options);
  }

  sendPostRequestAsync<T>(url: string, options?: NetworkRequestOptions): Promise<NetworkResponse<T>> {
    return this.send<T>('POST', url, options);
  }

  private async send<T>(method: string, url: string, options?: NetworkRequestOptions): Promise<NetworkResponse<T>> {
    const target = url.startsWith(this.authorityOrigin) ? this.targetOrigin + url.slice(this.authorityOrigin.length) : url;
    const res = await fetch(target, {
      method,
      ...(options?.headers ? { headers: options.headers } : {}),
      ...(options?.body !== undefined ? { body: options.body } : {}),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = {};
    }
    return { headers: Object.fromEntries(res.headers.entries()), body: body as T, status: res.status };
  }
}

/** The AADSTS number of an identity refusal, from MSAL's error. */
const aadstsCode = (error: AuthError): number | undefined => {
  const fromNo = error instanceof ServerError && error.errorNo ? Number(error.errorNo) : NaN;
  if (Number.isInteger(fromNo)) return fromNo;
  const match = /AADSTS(\d+)/.exec(error.errorMessage ?? error.message);
  return match ? Number(match[1]) : undefined;
};

/** Microsoft identity's refusal in words a creator can act on. */
export const identityRefusal = (code: number | undefined, detail: string): string => {
  switch (code) {
    case 7000215:
    case 7000218:
      return 'Microsoft refused the client secret: check the Client Secret of your app registration (its Value, not its Secret ID).';
    case 7000222:
      return 'Microsoft says the client secret has expired: create a new one in your app registration and save it here.';
    case 700016:
      return 'Microsoft found no app with this Client ID in the tenant: check the Application (client) ID of your app registration.';
    case 90002:
      return 'Microsoft found no tenant with this Tenant ID: check the Directory (tenant) ID of your app registration.';
    case 7000112:
      return 'Microsoft says the app registration is disabled: enable it in your tenant.';
    default: {
      const first = detail.replace(/^AADSTS\d+:\s*/, '').split(/\r?\n|(?<=\.)\s/)[0] ?? '';
      return `Microsoft refused the app registration${code ? ` (AADSTS${code})` : ''}: ${first || 'check the Tenant ID, Client ID and Client Secret.'}`;
    }
  }
};

/** The token MSAL got for these credentials (refusals and outages mapped). */
const requestToken = async (credentials: TeamsCredentials, loginUrl: string, timeoutMs: number): Promise<{ accessToken: string; expiresAt: number }> => {
  const tenant = credentials.tenantId.trim();
  if (!tenantPattern.test(tenant)) {
    throw notConnected('The Tenant ID is your directory\'s ID (a GUID such as 72f988bf-86f1-41af-91ab-2d7cd011db47) or one of its domains: check the Directory (tenant) ID of your app registration.');
  }
  const login = new URL(loginUrl);
  const authorityOrigin = `https://${login.host}`;
  const authority = `${authorityOrigin}/${tenant}`;
  const app = new ConfidentialClientApplication({
    auth: {
      clientId: credentials.clientId.trim(),
      clientSecret: credentials.clientSecret,
      authority,
      knownAuthorities: [login.host],
      // Given, so MSAL asks for nothing but the token (no instance discovery, no openid-configuration request).
      authorityMetadata: JSON.stringify({
        token_endpoint: `${authority}/oauth2/v2.0/token`,
        authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
        issuer: `${authority}/v2.0`,
        jwks_uri: `${authority}/discovery/v2.0/keys`,
      }),
      cloudDiscoveryMetadata: JSON.stringify({
        tenant_discovery_endpoint: `${authority}/v2.0/.well-known/openid-configuration`,
        'api-version': '1.1',
        metadata: [{ preferred_network: login.host, preferred_cache: login.host, aliases: [login.host] }],
      }),
    },
    system: {
      networkClient: new FetchNetworkClient(authorityOrigin, login.origin, timeoutMs),
      loggerOptions: { logLevel: LogLevel.Error, piiLoggingEnabled: false, loggerCallback: () => undefined },
    },
  });
  try {
    const result = await app.acquireTokenByClientCredential({ scopes: [GRAPH_SCOPE], skipCache: true });
    if (!result?.accessToken) throw unavailable('Microsoft identity answered without a token.');
    return { accessToken: result.accessToken, expiresAt: result.expiresOn?.getTime() ?? Date.now() + 3_000_000 };
  } catch (error) {
    if (error instanceof IntegrationNotConnectedError || error instanceof ProviderUnavailableError) throw error;
    if (error instanceof ServerError) {
      const status = error.status;
      const code = aadstsCode(error);
      if ((status !== undefined && status >= 500) || status === 429 || (status === undefined && code === undefined)) {
        throw unavailable('Microsoft identity is not answering: try again in a few minutes.', error);
      }
      throw notConnected(identityRefusal(code, error.errorMessage));
    }
    throw unavailable('Microsoft identity did not answer in time: try again in a few minutes.', error);
  }
};

type TeamsCredentials = Extract<MeetingCredentials, { provider: 'teams' }>;

/**
 * The per-call timeout, ahead of the SDK's HTTP handler. (The token is set on each request by `call`, fetched before
 * the request is sent: an error thrown inside the chain comes out of the SDK as a GraphError, losing the refusal.)
 */
class Timeout implements Middleware {
  private next: Middleware | undefined;

  constructor(private readonly timeoutMs: number) {}

  async execute(context: Context): Promise<void> {
    (context.options ??= {}).signal = AbortSignal.timeout(this.timeoutMs);
    await this.next!.execute(context);
  }

  setNext(next: Middleware): void {
    this.next = next;
  }
}

/** Graph's answer to a call that failed, in the adapter's terms (undefined: not an error Graph answered). */
const graphFailure = (error: unknown): GraphError | undefined => (error instanceof GraphError ? error : undefined);

export const teamsMeetings = (creatorId: string, credentials: TeamsCredentials, options: TeamsMeetingsOptions = {}): MeetingProvider => {
  const cache = options.cache ?? tokens;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const key = TokenCache.key(creatorId, 'teams', credentials.tenantId.trim(), credentials.clientId.trim(), credentials.clientSecret);
  const organiser = credentials.organizerEmail.trim();
  const userPath = `/users/${encodeURIComponent(organiser)}`;
  let client: Client | undefined;

  /** The app's token, from the cache or MSAL: what the SDK's auth provider would give, fetched before each request. */
  const auth: AuthenticationProvider = {
    getAccessToken: () => cache.get(key, () => requestToken(credentials, options.loginUrl ?? required('MICROSOFT_LOGIN_URL'), timeoutMs)),
  };

  const graph = (): Client => {
    if (client) return client;
    const graphUrl = (options.graphUrl ?? required('GRAPH_API_URL')).replace(/\/$/, '');
    const chain = new Timeout(timeoutMs);
    chain.setNext(new HTTPMessageHandler());
    client = Client.initWithMiddleware({ middleware: chain, baseUrl: `${graphUrl}/`, defaultVersion: 'v1.0' });
    return client;
  };

  /** A request to Graph carrying the app's token. */
  const api = async (path: string): Promise<GraphRequest> => graph().api(path).header('Authorization', `Bearer ${await auth.getAccessToken()}`);

  /**
   * One Graph call: made once more with a fresh token when Graph refuses the token (expired or revoked), then any
   * failure mapped. `onNotFound` says what a 404 means for this call (undefined: the organiser is unknown).
   */
  const call = async <T>(send: (api: (path: string) => Promise<GraphRequest>) => Promise<T>, onNotFound?: () => T): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send(api);
      } catch (error) {
        if (error instanceof IntegrationNotConnectedError || error instanceof ProviderUnavailableError) throw error;
        const failure = graphFailure(error);
        if (!failure) throw unavailable('Microsoft Graph did not answer: try again in a few minutes.', error);
        const status = failure.statusCode;
        if (status === 401 && attempt === 1) {
          cache.forget(key);
          continue;
        }
        if (status === 401) throw notConnected('Microsoft Graph refused the app\'s token: check that your app registration has the Calendars.ReadWrite application permission with admin consent.');
        if (status === 403) {
          throw notConnected(`Microsoft Graph denied the app access to ${organiser}'s calendar: grant your app registration the Calendars.ReadWrite application permission with admin consent (and allow this mailbox if an application access policy restricts it).`);
        }
        if (status === 404 && onNotFound && failure.code !== 'ErrorInvalidUser' && failure.code !== 'Request_ResourceNotFound') return onNotFound();
        if (status === 404 || (status === 400 && failure.code === 'ErrorInvalidUser') || failure.code === 'MailboxNotEnabledForRESTAPI') {
          throw notConnected(`Microsoft has no mailbox ${organiser} in this tenant: check the Organizer Email (a licensed user of your tenant).`);
        }
        if (status === -1 || status === 429 || status >= 500) throw unavailable('Microsoft Graph is not answering: try again in a few minutes.', error);
        throw unavailable(`Microsoft Graph refused the request (${failure.code ?? status}): ${failure.message}`, error);
      }
    }
  };

  const times = (details: MeetingDetails) => {
    const start = new Date(details.startsAt);
    const end = new Date(start.getTime() + details.durationMinutes * 60_000);
    // UTC on the wire: Graph takes Windows zone names, and the organiser's Outlook shows the meeting in their own zone.
    const utc = (date: Date) => ({ dateTime: date.toISOString().replace(/Z$/, ''), timeZone: 'UTC' });
    return { start: utc(start), end: utc(end) };
  };

  const meetingOf = (raw: unknown): ProviderMeeting | undefined => {
    const event = eventSchema.parse(raw);
    const joinUrl = event.onlineMeeting?.joinUrl;
    return joinUrl ? { meetingId: event.id, joinUrl, hostUrl: joinUrl } : undefined;
  };

  const eventPath = (meetingId: string) => `${userPath}/events/${encodeURIComponent(meetingId)}`;

  return {
    provider: 'teams',

    async check() {
      const calendar = calendarSchema.parse(await call(async (c) => (await c(`${userPath}/calendar`)).select('allowedOnlineMeetingProviders,defaultOnlineMeetingProvider').get()));
      if (calendar.allowedOnlineMeetingProviders && !calendar.allowedOnlineMeetingProviders.includes(TEAMS)) {
        throw notConnected(`${organiser}'s calendar cannot hold Teams meetings: the organiser needs a Microsoft Teams licence.`);
      }
    },

    async createMeeting(details) {
      const made = await call(async (c) =>
        (await c(`${userPath}/events`)).post({
          subject: details.title,
          body: { contentType: 'text', content: details.description },
          ...times(details),
          isOnlineMeeting: true,
          onlineMeetingProvider: TEAMS,
          allowNewTimeProposals: false,
          transactionId: details.sessionId,
          singleValueExtendedProperties: [{ id: SESSION_PROPERTY_ID, value: details.sessionId }],
        }),
      );
      const meeting = meetingOf(made);
      if (meeting) return meeting;
      // Graph may fill the meeting in a moment after the event: read it once more, else take the event back.
      const id = eventSchema.parse(made).id;
      const again = await call(async (c) => (await c(eventPath(id))).select('id,onlineMeeting').get(), () => undefined);
      const read = again === undefined ? undefined : meetingOf(again);
      if (read) return read;
      await call(async (c) => (await c(eventPath(id))).delete(), () => undefined);
      throw notConnected(`Microsoft made the event without a Teams meeting: ${organiser} needs a Microsoft Teams licence.`);
    },

    async findMeeting(sessionId) {
      const filter = `singleValueExtendedProperties/Any(ep: ep/id eq '${SESSION_PROPERTY_ID}' and ep/value eq '${sessionId.replace(/'/g, "''")}')`;
      const list = eventListSchema.parse(await call(async (c) => (await c(`${userPath}/events`)).filter(filter).select('id,onlineMeeting').get()));
      for (const event of list.value) {
        const meeting = meetingOf(event);
        if (meeting) return meeting;
      }
      return undefined;
    },

    async updateMeeting(meetingId, details) {
      return call(
        async (c) => {
          await (await c(eventPath(meetingId))).patch({ subject: details.title, body: { contentType: 'text', content: details.description }, ...times(details) });
          return 'updated' as const;
        },
        () => 'gone' as const,
      );
    },

    async deleteMeeting(meetingId) {
      await call(async (c) => (await c(eventPath(meetingId))).delete(), () => undefined);
    },
  };
};

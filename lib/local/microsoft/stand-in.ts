import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ErrorReply } from '../faults/proxy.ts';
import { escapeHtml, jsonReplies, noContent, readBody, sendHtml } from '../http-replies.ts';
import { listenAt } from '../http-server.ts';
import { demoTenant, type AppRegistration, type DirectoryUser, type Tenant } from './directory.ts';

/**
 * The local Microsoft cloud for Teams meetings (issue 30; decision 0046): Microsoft identity's client-credentials token
 * endpoint and the slice of Microsoft Graph v1.0 the Teams adapter (functions/adapters/teams-meetings.ts) calls, on one
 * port, speaking their wire protocols closely enough for `@azure/msal-node` and `@microsoft/microsoft-graph-client`.
 *
 * Microsoft identity (the authority, `MICROSOFT_LOGIN_URL`; https://login.microsoftonline.com in the cloud):
 * - `POST /{tenant}/oauth2/v2.0/token` (form: client_id, client_secret, scope=https://graph.microsoft.com/.default,
 *   grant_type=client_credentials): `{token_type: "Bearer", expires_in, ext_expires_in, access_token}`; refusals as
 *   Entra ID answers them (`{error, error_description: "AADSTS…", error_codes, timestamp, trace_id, correlation_id,
 *   error_uri}`): unknown tenant 400 invalid_request AADSTS90002, unknown app 400 unauthorized_client AADSTS700016,
 *   wrong secret 401 invalid_client AADSTS7000215, a scope without /.default 400 invalid_scope AADSTS1002012.
 * - `GET /{tenant}/v2.0/.well-known/openid-configuration` and `GET /common/discovery/instance`: the discovery documents
 *   MSAL reads when it is not given them (the adapter gives them: no discovery round trip; decision 0046).
 *
 * Graph (`GRAPH_API_URL`; https://graph.microsoft.com in the cloud), every call with `Authorization: Bearer <token>`
 * (401 InvalidAuthenticationToken when missing, unknown or expired):
 * - `GET /v1.0/users/{id | userPrincipalName}` (404 Request_ResourceNotFound) and `GET /v1.0/users/{user}/calendar`
 *   (the organiser's mailbox, 404 ErrorInvalidUser): the connection check;
 * - `POST /v1.0/users/{user}/events` (also `/calendar/events`) with `isOnlineMeeting: true, onlineMeetingProvider:
 *   "teamsForBusiness"`: the event in the organiser's calendar with its Teams meeting (`onlineMeeting.joinUrl`); a
 *   `transactionId` already used answers the event it made; `singleValueExtendedProperties` kept;
 * - `GET /v1.0/users/{user}/events?$filter=singleValueExtendedProperties/Any(ep: ep/id eq '…' and ep/value eq '…')`;
 * - `GET`, `PATCH`, `DELETE /v1.0/users/{user}/events/{id}` (404 ErrorItemNotFound once deleted).
 * Each needs the app role Calendars.ReadWrite (403 ErrorAccessDenied), the user read User.Read.All.
 *
 * What was made is kept (`stateFile`) and shown at `GET /` (the viewer); a meeting's join link opens a page here.
 * Test controls under `/_stand-in/`: `POST token-lifetime {"seconds"}` (the lifetime of the next tokens),
 * `POST expire-tokens` (every token issued so far is expired from now: the next Graph call answers 401), `GET calls`,
 * `GET events` (also deleted ones), `POST reset` (no events, no calls, the default lifetime).
 */
export interface MicrosoftStandInOptions {
  port: number;
  host?: string;
  /** Lifetime of the access tokens it issues (Entra ID: about an hour). */
  tokenLifetimeSeconds?: number;
  /** Where the events are kept across restarts (none: in memory). */
  stateFile?: string;
  tenants?: Tenant[];
}

export interface StoredEvent {
  id: string;
  tenantId: string;
  /** The organiser's object id. */
  userId: string;
  subject: string;
  body: { contentType: string; content: string };
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  isOnlineMeeting: boolean;
  onlineMeetingProvider: string;
  joinUrl?: string;
  transactionId?: string;
  singleValueExtendedProperties: { id: string; value: string }[];
  createdDateTime: string;
  lastModifiedDateTime: string;
  changeKey: string;
  /** Set once deleted: Graph answers 404, the viewer still shows it. */
  deletedDateTime?: string;
}

export interface RecordedCall {
  at: string;
  method: string;
  path: string;
  status: number;
}

export interface MicrosoftState {
  events: StoredEvent[];
  calls: RecordedCall[];
  tokenLifetimeSeconds: number;
}

export interface MicrosoftStandIn {
  url: string;
  state: MicrosoftState;
  stop(): Promise<void>;
}

interface IssuedToken {
  tenantId: string;
  clientId: string;
  roles: string[];
  expiresAt: number;
}

/** What the fault proxy answers for Microsoft (docs/faults.md): Graph's 503, which the Teams adapter reads as an outage. */
export const graphErrorReply = (): ErrorReply => ({
  status: 503,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { code: 'serviceNotAvailable', message: 'Injected fault: Microsoft is unavailable.' } }),
});

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3599;
export const GRAPH_RESOURCE = 'https://graph.microsoft.com';
const MAX_CALLS = 200;

const sendJson = jsonReplies({ contentType: 'application/json; charset=utf-8' });

/** Entra ID's error body: the description carries the AADSTS code, a trace and a correlation id, as the real one does. */
const identityError = (res: ServerResponse, status: number, error: string, code: number, description: string): void => {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  sendJson(res, status, {
    error,
    error_description: `AADSTS${code}: ${description}\r\nTrace ID: ${traceId}\r\nCorrelation ID: ${correlationId}\r\nTimestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    error_uri: `https://login.microsoftonline.com/error?code=${code}`,
  });
};

/** Graph's error body. */
const graphError = (res: ServerResponse, status: number, code: string, message: string): void => {
  const requestId = randomUUID();
  sendJson(res, status, { error: { code, message, innerError: { date: new Date().toISOString().replace(/\.\d+Z$/, ''), 'request-id': requestId, 'client-request-id': requestId } } }, { 'request-id': requestId });
};

/** `2026-12-01T10:00:00Z` or `2026-12-01T10:00:00.0000000` (with timeZone UTC) as Graph writes it back. */
const graphDateTime = (value: string): string | undefined => {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,7}))?Z?$/.exec(value);
  if (!match) return undefined;
  return `${match[1]}.${(match[2] ?? '').padEnd(7, '0')}`;
};

const isUtc = (zone: string): boolean => ['utc', 'etc/utc', 'coordinated universal time'].includes(zone.toLowerCase());

const eventIdFor = (): string => `AAMkADlvY2FsLXRlYW1z${randomBytes(24).toString('base64url')}AAA=`;

/** Tenants found by id or one of their domains, case-insensitively (as Entra ID does in the authority's path). */
const findTenant = (tenants: Tenant[], key: string): Tenant | undefined => {
  const lower = key.toLowerCase();
  return tenants.find((tenant) => tenant.id === lower || tenant.domains.includes(lower));
};

const findUser = (tenant: Tenant, key: string): DirectoryUser | undefined => {
  const lower = key.toLowerCase();
  return tenant.users.find((user) => user.id === lower || user.userPrincipalName.toLowerCase() === lower || user.mail.toLowerCase() === lower);
};

const loadEvents = (file: string | undefined): StoredEvent[] => {
  if (!file || !existsSync(file)) return [];
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { events?: StoredEvent[] };
    return Array.isArray(saved.events) ? saved.events : [];
  } catch {
    return [];
  }
};

export const startMicrosoftStandIn = async (options: MicrosoftStandInOptions): Promise<MicrosoftStandIn> => {
  const host = options.host ?? '127.0.0.1';
  const tenants = options.tenants ?? [demoTenant];
  const defaultLifetime = options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
  const state: MicrosoftState = { events: loadEvents(options.stateFile), calls: [], tokenLifetimeSeconds: defaultLifetime };
  const tokens = new Map<string, IssuedToken>();
  let url = '';

  const save = (): void => {
    if (options.stateFile) writeFileSync(options.stateFile, `${JSON.stringify({ events: state.events }, null, 2)}\n`);
  };

  // ---- Microsoft identity ----

  const token = (res: ServerResponse, tenantKey: string, raw: string): void => {
    const form = new URLSearchParams(raw);
    const tenant = findTenant(tenants, tenantKey);
    if (!tenant) {
      return identityError(res, 400, 'invalid_request', 90002, `Tenant '${tenantKey}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`);
    }
    const grantType = form.get('grant_type');
    if (!grantType) return identityError(res, 400, 'invalid_request', 900144, "The request body must contain the following parameter: 'grant_type'.");
    if (grantType !== 'client_credentials') {
      return identityError(res, 400, 'unsupported_grant_type', 70003, `The app requested an unsupported grant type '${grantType}'.`);
    }
    const clientId = form.get('client_id') ?? '';
    if (!clientId) return identityError(res, 400, 'invalid_request', 900144, "The request body must contain the following parameter: 'client_id'.");
    const app: AppRegistration | undefined = tenant.apps.find((candidate) => candidate.clientId === clientId.toLowerCase());
    if (!app) {
      return identityError(res, 400, 'unauthorized_client', 700016, `Application with identifier '${clientId}' was not found in the directory '${tenant.displayName}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`);
    }
    const secret = form.get('client_secret');
    if (!secret) {
      return identityError(res, 401, 'invalid_client', 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.");
    }
    if (!app.secrets.includes(secret)) {
      return identityError(res, 401, 'invalid_client', 7000215, `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${app.clientId}'.`);
    }
    const scope = form.get('scope') ?? '';
    const resource = scope.split(' ').find((s) => s.endsWith('/.default'));
    if (!resource || resource.replace(/\/\.default$/, '').replace(/\/$/, '') !== GRAPH_RESOURCE) {
      return identityError(res, 400, 'invalid_scope', 1002012, `The provided value for scope ${scope || '(none)'} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`);
    }
    const accessToken = `eyJ0eXAiOiJKV1QiLCJsb2NhbCI6InRlYW1zIn0.${randomBytes(32).toString('base64url')}`;
    const lifetime = state.tokenLifetimeSeconds;
    tokens.set(accessToken, { tenantId: tenant.id, clientId: app.clientId, roles: app.roles, expiresAt: Date.now() + lifetime * 1000 });
    sendJson(res, 200, { token_type: 'Bearer', expires_in: lifetime, ext_expires_in: lifetime, access_token: accessToken });
  };

  const openIdConfiguration = (res: ServerResponse, tenantKey: string): void => {
    const tenant = findTenant(tenants, tenantKey);
    if (!tenant) {
      return identityError(res, 400, 'invalid_tenant', 90002, `Tenant '${tenantKey}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`);
    }
    // Entra ID serves only https: the documents name https endpoints on this host, as a client maps them (decision 0046).
    const base = `https://${new URL(url).host}`;
    sendJson(res, 200, {
      token_endpoint: `${base}/${tenant.id}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${base}/${tenant.id}/discovery/v2.0/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      issuer: `${base}/${tenant.id}/v2.0`,
      authorization_endpoint: `${base}/${tenant.id}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${base}/${tenant.id}/oauth2/v2.0/logout`,
      tenant_region_scope: 'EU',
      cloud_instance_name: 'microsoftonline.com',
    });
  };

  const instanceDiscovery = (res: ServerResponse): void => {
    const hostName = new URL(url).host;
    sendJson(res, 200, {
      tenant_discovery_endpoint: `https://${hostName}/{tenant}/v2.0/.well-known/openid-configuration`,
      'api-version': '1.1',
      metadata: [{ preferred_network: hostName, preferred_cache: hostName, aliases: [hostName] }],
    });
  };

  // ---- Graph ----

  const authorise = (req: IncomingMessage, res: ServerResponse): IssuedToken | undefined => {
    const header = req.headers.authorization ?? '';
    const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1];
    if (!bearer) {
      graphError(res, 401, 'InvalidAuthenticationToken', 'Access token is empty.');
      return undefined;
    }
    const issued = tokens.get(bearer);
    if (!issued) {
      graphError(res, 401, 'InvalidAuthenticationToken', 'IDX14100: JWT is not well formed, there are no dots (.).\nThe token needs to be in JWS or JWE Compact Serialization Format.');
      return undefined;
    }
    if (issued.expiresAt <= Date.now()) {
      graphError(res, 401, 'InvalidAuthenticationToken', 'Lifetime validation failed, the token is expired.');
      return undefined;
    }
    return issued;
  };

  const toGraphEvent = (event: StoredEvent, user: DirectoryUser, expand: boolean) => ({
    '@odata.etag': `W/"${event.changeKey}"`,
    id: event.id,
    createdDateTime: event.createdDateTime,
    lastModifiedDateTime: event.lastModifiedDateTime,
    changeKey: event.changeKey,
    ...(event.transactionId ? { transactionId: event.transactionId } : {}),
    iCalUId: `040000008200E00074C5B7101A82E008${Buffer.from(event.id).toString('hex').slice(0, 40).toUpperCase()}`,
    subject: event.subject,
    bodyPreview: event.body.content.replace(/<[^>]*>/g, '').slice(0, 255),
    body: event.body,
    start: event.start,
    end: event.end,
    isCancelled: false,
    isOrganizer: true,
    isOnlineMeeting: event.isOnlineMeeting,
    onlineMeetingProvider: event.isOnlineMeeting ? event.onlineMeetingProvider : 'unknown',
    onlineMeetingUrl: null,
    onlineMeeting: event.isOnlineMeeting && event.joinUrl ? { joinUrl: event.joinUrl } : null,
    webLink: `${url}/?event=${encodeURIComponent(event.id)}`,
    organizer: { emailAddress: { name: user.displayName, address: user.mail } },
    attendees: [],
    ...(expand ? { singleValueExtendedProperties: event.singleValueExtendedProperties } : {}),
  });

  interface EventInput {
    subject?: unknown;
    body?: { contentType?: unknown; content?: unknown };
    start?: { dateTime?: unknown; timeZone?: unknown };
    end?: { dateTime?: unknown; timeZone?: unknown };
    isOnlineMeeting?: unknown;
    onlineMeetingProvider?: unknown;
    transactionId?: unknown;
    singleValueExtendedProperties?: unknown;
  }

  /** The start or end as given, or the reason Graph would refuse it. */
  const timeOf = (value: EventInput['start']): { dateTime: string; timeZone: string } | string => {
    if (!value || typeof value.dateTime !== 'string') return 'The DateTimeTimeZone value is missing its dateTime.';
    const dateTime = graphDateTime(value.dateTime);
    if (!dateTime) return `Cannot convert the literal '${value.dateTime}' to the expected type 'Edm.String'.`;
    const timeZone = typeof value.timeZone === 'string' && value.timeZone ? value.timeZone : 'UTC';
    return { dateTime, timeZone };
  };

  const parseJson = (res: ServerResponse, raw: string): EventInput | undefined => {
    try {
      const body = JSON.parse(raw) as unknown;
      if (body && typeof body === 'object' && !Array.isArray(body)) return body as EventInput;
    } catch {
      // answered below
    }
    graphError(res, 400, 'BadRequest', 'Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of valid JSON format.');
    return undefined;
  };

  const touch = (event: StoredEvent): void => {
    event.lastModifiedDateTime = new Date().toISOString();
    event.changeKey = randomBytes(12).toString('base64');
  };

  const createEvent = (res: ServerResponse, tenant: Tenant, user: DirectoryUser, raw: string): void => {
    const body = parseJson(res, raw);
    if (!body) return;
    const transactionId = typeof body.transactionId === 'string' && body.transactionId ? body.transactionId : undefined;
    if (transactionId) {
      const made = state.events.find((event) => event.tenantId === tenant.id && event.userId === user.id && event.transactionId === transactionId && !event.deletedDateTime);
      if (made) return sendJson(res, 201, toGraphEvent(made, user, false));
    }
    const start = timeOf(body.start);
    const end = timeOf(body.end);
    if (typeof start === 'string') return graphError(res, 400, 'ErrorInvalidRequest', start);
    if (typeof end === 'string') return graphError(res, 400, 'ErrorInvalidRequest', end);
    if (isUtc(start.timeZone) && isUtc(end.timeZone) && end.dateTime < start.dateTime) {
      return graphError(res, 400, 'ErrorInvalidRequest', 'The end time of the event cannot be before its start time.');
    }
    const properties = Array.isArray(body.singleValueExtendedProperties)
      ? (body.singleValueExtendedProperties as { id?: unknown; value?: unknown }[]).flatMap((p) => (typeof p?.id === 'string' && typeof p.value === 'string' ? [{ id: p.id, value: p.value }] : []))
      : [];
    const id = eventIdFor();
    const isOnlineMeeting = body.isOnlineMeeting === true;
    const provider = typeof body.onlineMeetingProvider === 'string' ? body.onlineMeetingProvider : 'teamsForBusiness';
    const now = new Date().toISOString();
    const event: StoredEvent = {
      id,
      tenantId: tenant.id,
      userId: user.id,
      subject: typeof body.subject === 'string' ? body.subject : '',
      body: {
        contentType: body.body?.contentType === 'html' || body.body?.contentType === 'HTML' ? 'html' : 'text',
        content: typeof body.body?.content === 'string' ? body.body.content : '',
      },
      start,
      end,
      isOnlineMeeting: isOnlineMeeting && provider === 'teamsForBusiness',
      onlineMeetingProvider: provider,
      ...(isOnlineMeeting && provider === 'teamsForBusiness' ? { joinUrl: `${url}/l/meetup-join/19%3ameeting_${randomBytes(18).toString('base64url')}%40thread.v2/0` } : {}),
      ...(transactionId ? { transactionId } : {}),
      singleValueExtendedProperties: properties,
      createdDateTime: now,
      lastModifiedDateTime: now,
      changeKey: randomBytes(12).toString('base64'),
    };
    state.events.push(event);
    save();
    sendJson(res, 201, toGraphEvent(event, user, false));
  };

  const updateEvent = (res: ServerResponse, event: StoredEvent, user: DirectoryUser, raw: string): void => {
    const body = parseJson(res, raw);
    if (!body) return;
    if (body.transactionId !== undefined && body.transactionId !== event.transactionId) {
      return graphError(res, 400, 'ErrorInvalidRequest', 'The transactionId of an event cannot be changed.');
    }
    const start = body.start === undefined ? event.start : timeOf(body.start);
    const end = body.end === undefined ? event.end : timeOf(body.end);
    if (typeof start === 'string') return graphError(res, 400, 'ErrorInvalidRequest', start);
    if (typeof end === 'string') return graphError(res, 400, 'ErrorInvalidRequest', end);
    if (typeof body.subject === 'string') event.subject = body.subject;
    if (body.body && typeof body.body.content === 'string') event.body = { contentType: body.body.contentType === 'html' || body.body.contentType === 'HTML' ? 'html' : 'text', content: body.body.content };
    event.start = start;
    event.end = end;
    touch(event);
    save();
    sendJson(res, 200, toGraphEvent(event, user, false));
  };

  /** `singleValueExtendedProperties/Any(ep: ep/id eq '…' and ep/value eq '…')`, the one filter Graph answers on them. */
  const propertyFilter = (filter: string): { id: string; value: string } | undefined => {
    const match = /^singleValueExtendedProperties\/any\(\s*(\w+)\s*:\s*\1\/id\s+eq\s+'((?:[^']|'')*)'\s+and\s+\1\/value\s+eq\s+'((?:[^']|'')*)'\s*\)$/i.exec(filter.trim());
    return match ? { id: match[2]!.replace(/''/g, "'"), value: match[3]!.replace(/''/g, "'") } : undefined;
  };

  const graph = async (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, raw: string): Promise<void> => {
    const issued = authorise(req, res);
    if (!issued) return;
    const tenant = tenants.find((candidate) => candidate.id === issued.tenantId)!;
    const segments = path.split('/').slice(2).map((segment) => decodeURIComponent(segment));
    if (segments[0] !== 'users' || !segments[1]) {
      return graphError(res, 400, 'BadRequest', `Resource not found for the segment '${segments[0] ?? ''}'.`);
    }
    const userKey = segments[1];
    const rest = segments.slice(2);
    if (rest[0] === 'calendar' && rest[1] === 'events') rest.splice(0, 1);
    const user = findUser(tenant, userKey);

    if (rest.length === 0 && req.method === 'GET') {
      if (!issued.roles.includes('User.Read.All')) return graphError(res, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
      if (!user) return graphError(res, 404, 'Request_ResourceNotFound', `Resource '${userKey}' does not exist or one of its queried reference-property objects are not present.`);
      return sendJson(res, 200, { '@odata.context': `${GRAPH_RESOURCE}/v1.0/$metadata#users/$entity`, id: user.id, displayName: user.displayName, userPrincipalName: user.userPrincipalName, mail: user.mail });
    }
    if (!issued.roles.includes('Calendars.ReadWrite')) return graphError(res, 403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    if (!user) return graphError(res, 404, 'ErrorInvalidUser', `The requested user '${userKey}' is invalid.`);

    if (rest.length === 1 && rest[0] === 'calendar' && req.method === 'GET') {
      return sendJson(res, 200, {
        id: `AAMkADlvY2FsLWNhbGVuZGFy${Buffer.from(user.id).toString('base64url')}`,
        name: 'Calendar',
        canEdit: true,
        isDefaultCalendar: true,
        allowedOnlineMeetingProviders: ['teamsForBusiness'],
        defaultOnlineMeetingProvider: 'teamsForBusiness',
        owner: { name: user.displayName, address: user.mail },
      });
    }
    const live = (event: StoredEvent) => event.tenantId === tenant.id && event.userId === user.id && !event.deletedDateTime;
    if (rest.length === 1 && rest[0] === 'events') {
      if (req.method === 'POST') return createEvent(res, tenant, user, raw);
      if (req.method === 'GET') {
        const filter = query.get('$filter');
        let events = state.events.filter(live);
        if (filter) {
          const wanted = propertyFilter(filter);
          if (!wanted) return graphError(res, 400, 'ErrorInvalidUrlQueryFilter', 'The query filter contains one or more invalid nodes.');
          events = events.filter((event) => event.singleValueExtendedProperties.some((p) => p.id.toLowerCase() === wanted.id.toLowerCase() && p.value === wanted.value));
        }
        const expand = (query.get('$expand') ?? '').toLowerCase().includes('singlevalueextendedproperties');
        return sendJson(res, 200, { '@odata.context': `${GRAPH_RESOURCE}/v1.0/$metadata#users('${user.id}')/events`, value: events.map((event) => toGraphEvent(event, user, expand)) });
      }
    }
    if (rest.length === 2 && rest[0] === 'events') {
      const event = state.events.find((candidate) => live(candidate) && candidate.id === rest[1]);
      if (!event) return graphError(res, 404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
      if (req.method === 'GET') return sendJson(res, 200, toGraphEvent(event, user, (query.get('$expand') ?? '').toLowerCase().includes('singlevalueextendedproperties')));
      if (req.method === 'PATCH') return updateEvent(res, event, user, raw);
      if (req.method === 'DELETE') {
        event.deletedDateTime = new Date().toISOString();
        save();
        return noContent(res);
      }
    }
    graphError(res, 400, 'BadRequest', `The local Microsoft Graph stand-in does not implement ${req.method} ${path}.`);
  };

  // ---- pages ----

  const page = (title: string, body: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;color:#1b1a19;background:#f5f5f5}header{background:#4b53bc;color:#fff;padding:1rem 1.5rem}main{padding:1rem 1.5rem;max-width:72rem}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #ddd;vertical-align:top}code{word-break:break-all}.scroll{overflow-x:auto}.scroll table{min-width:44rem}dd{margin:0;min-width:0}
.gone{color:#666;text-decoration:line-through}a{color:#4b53bc}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#fff;padding:1rem}dt{font-weight:600}</style></head>
<body><header><h1 style="margin:0;font-size:1.25rem">${escapeHtml(title)}</h1></header><main>${body}</main></body></html>`;

  const viewer = (): string => {
    const tenantRows = tenants
      .map(
        (tenant) =>
          `<dl><dt>Tenant ID</dt><dd><code>${escapeHtml(tenant.id)}</code> (${escapeHtml(tenant.displayName)})</dd>${tenant.apps
            .map((app) => `<dt>Client ID</dt><dd><code>${escapeHtml(app.clientId)}</code> (${escapeHtml(app.displayName)}; ${escapeHtml(app.roles.join(', '))})</dd><dt>Client secret</dt><dd><code>${escapeHtml(app.secrets[0] ?? '')}</code></dd>`)
            .join('')}${tenant.users.map((user) => `<dt>Organiser</dt><dd><code>${escapeHtml(user.mail)}</code></dd>`).join('')}</dl>`,
      )
      .join('');
    const rows = [...state.events]
      .reverse()
      .map((event) => {
        const user = tenants.flatMap((tenant) => tenant.users).find((candidate) => candidate.id === event.userId);
        const status = event.deletedDateTime ? `deleted ${escapeHtml(event.deletedDateTime)}` : 'scheduled';
        return `<tr class="${event.deletedDateTime ? 'gone' : ''}"><td>${escapeHtml(event.subject)}</td><td>${escapeHtml(event.start.dateTime)} ${escapeHtml(event.start.timeZone)}</td><td>${escapeHtml(event.end.dateTime)}</td><td>${escapeHtml(user?.mail ?? event.userId)}</td><td>${status}</td><td>${event.joinUrl ? `<a href="${escapeHtml(event.joinUrl)}">Join</a>` : ''}</td></tr>`;
      })
      .join('');
    return page(
      'Microsoft Teams (local stand-in)',
      `<h2>Demo app registration</h2>${tenantRows}<p>Token lifetime: ${state.tokenLifetimeSeconds} s.</p><h2>Meetings (${state.events.length})</h2>${
        state.events.length === 0
          ? '<p>No meeting yet: schedule a Teams session in the course editor.</p>'
          : `<div class="scroll" tabindex="0" role="region" aria-label="Meetings"><table><thead><tr><th scope="col">Subject</th><th scope="col">Start</th><th scope="col">End</th><th scope="col">Organiser</th><th scope="col">Status</th><th scope="col">Meeting</th></tr></thead><tbody>${rows}</tbody></table></div>`
      }`,
    );
  };

  const joinPage = (res: ServerResponse, path: string): void => {
    const event = state.events.find((candidate) => candidate.joinUrl && new URL(candidate.joinUrl).pathname === path);
    if (!event) return sendHtml(res, 404, page('Microsoft Teams', '<p>This meeting does not exist.</p>'));
    const body = event.deletedDateTime
      ? `<p>The meeting <strong>${escapeHtml(event.subject)}</strong> was cancelled by its organiser.</p>`
      : `<p>You joined <strong>${escapeHtml(event.subject)}</strong> (${escapeHtml(event.start.dateTime)} ${escapeHtml(event.start.timeZone)}), a Teams meeting of the local stand-in.</p>`;
    sendHtml(res, 200, page('Microsoft Teams meeting', body));
  };

  // ---- controls and routing ----

  const control = (req: IncomingMessage, res: ServerResponse, path: string, raw: string): void => {
    if (req.method === 'POST' && path === '/_stand-in/token-lifetime') {
      let seconds: unknown;
      try {
        seconds = (JSON.parse(raw) as { seconds?: unknown }).seconds;
      } catch {
        seconds = undefined;
      }
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > 86_400) {
        return sendJson(res, 400, { message: 'Body must be JSON: {"seconds": 1..86400}' });
      }
      state.tokenLifetimeSeconds = seconds;
      return sendJson(res, 200, { tokenLifetimeSeconds: seconds });
    }
    if (req.method === 'POST' && path === '/_stand-in/expire-tokens') {
      const now = Date.now();
      for (const issued of tokens.values()) issued.expiresAt = Math.min(issued.expiresAt, now);
      return sendJson(res, 200, { expired: tokens.size });
    }
    if (req.method === 'POST' && path === '/_stand-in/reset') {
      state.events.splice(0);
      state.calls.splice(0);
      state.tokenLifetimeSeconds = defaultLifetime;
      tokens.clear();
      save();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'GET' && path === '/_stand-in/calls') return sendJson(res, 200, { calls: state.calls });
    if (req.method === 'GET' && path === '/_stand-in/events') return sendJson(res, 200, { events: state.events });
    if (req.method === 'GET' && path === '/_stand-in/health') return sendJson(res, 200, { ok: true });
    sendJson(res, 404, { message: `No control ${req.method} ${path}.` });
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const target = new URL(req.url ?? '/', 'http://stand-in');
    const path = target.pathname;
    if (path.startsWith('/_stand-in/')) return control(req, res, path, raw);
    if (req.method === 'GET' && path === '/') return sendHtml(res, 200, viewer());
    if (req.method === 'GET' && path.startsWith('/l/meetup-join/')) return joinPage(res, (req.url ?? '').split('?')[0]!);
    if (path.startsWith('/v1.0/')) return graph(req, res, path, target.searchParams, raw);
    const tokenMatch = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(path);
    if (req.method === 'POST' && tokenMatch) return token(res, decodeURIComponent(tokenMatch[1]!), raw);
    const configMatch = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(path);
    if (req.method === 'GET' && configMatch) return openIdConfiguration(res, decodeURIComponent(configMatch[1]!));
    if (req.method === 'GET' && path === '/common/discovery/instance') return instanceDiscovery(res);
    sendJson(res, 404, { error: 'not_found', error_description: `The local Microsoft stand-in does not implement ${req.method} ${path}.` });
  };

  const server = createServer((req, res) => {
    const at = new Date().toISOString();
    res.on('finish', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path.startsWith('/_stand-in/')) return;
      state.calls.push({ at, method: req.method ?? 'GET', path, status: res.statusCode });
      if (state.calls.length > MAX_CALLS) state.calls.shift();
    });
    route(req, res).catch((error: unknown) => {
      console.warn(`[microsoft stand-in] ${req.method} ${req.url} failed: ${(error as Error)?.stack ?? String(error)}`);
      if (res.headersSent) res.destroy();
      else graphError(res, 500, 'generalException', 'The stand-in failed to handle this request.');
    });
  });

  url = await listenAt(server, options.port, host);

  return {
    url,
    state,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
};

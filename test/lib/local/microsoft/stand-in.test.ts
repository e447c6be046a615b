import { ConfidentialClientApplication, type INetworkModule, type NetworkRequestOptions, type NetworkResponse } from '@azure/msal-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { teamsDemoCredentials as demo } from '#lib/local/microsoft/directory.ts';
import { startMicrosoftStandIn, type MicrosoftStandIn } from '#lib/local/microsoft/stand-in.ts';

/** The Microsoft stand-in's wire protocol: what Entra ID and Graph answer, byte for byte where clients read it. */
let standIn: MicrosoftStandIn;

const token = (form: Record<string, string>, tenant: string = demo.tenantId) =>
  fetch(`${standIn.url}/${tenant}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
const demoForm = () => ({ client_id: demo.clientId, client_secret: demo.clientSecret, scope: 'https://graph.microsoft.com/.default', grant_type: 'client_credentials' });
const accessToken = async () => ((await (await token(demoForm())).json()) as { access_token: string }).access_token;
const graph = async (method: string, path: string, body?: unknown, bearer?: string) =>
  fetch(`${standIn.url}/v1.0${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer ?? (await accessToken())}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

beforeAll(async () => {
  standIn = await startMicrosoftStandIn({ port: 0 });
});
afterAll(() => standIn.stop());
beforeEach(async () => {
  await fetch(`${standIn.url}/_stand-in/reset`, { method: 'POST' });
});

describe('the Microsoft identity stand-in', () => {
  it('answers the client-credentials grant as Entra ID does', async () => {
    const res = await token(demoForm());
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'ext_expires_in', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599 });
  });

  it.each([
    ['a wrong secret', { client_secret: 'wrong' }, demo.tenantId, 401, 'invalid_client', 7000215, 'AADSTS7000215: Invalid client secret provided.'],
    ['an unknown app', { client_id: '11111111-1111-1111-1111-111111111111' }, demo.tenantId, 400, 'unauthorized_client', 700016, "AADSTS700016: Application with identifier '11111111-1111-1111-1111-111111111111' was not found in the directory"],
    ['an unknown tenant', {}, '22222222-2222-2222-2222-222222222222', 400, 'invalid_request', 90002, "AADSTS90002: Tenant '22222222-2222-2222-2222-222222222222' not found."],
    ['a scope without /.default', { scope: 'Calendars.ReadWrite' }, demo.tenantId, 400, 'invalid_scope', 1002012, 'AADSTS1002012: The provided value for scope Calendars.ReadWrite is not valid.'],
  ])('refuses %s with its AADSTS error', async (_name, change, tenant, status, error, code, description) => {
    const res = await token({ ...demoForm(), ...change }, tenant);
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: string; error_description: string; error_codes: number[]; trace_id: string; correlation_id: string };
    expect(body.error).toBe(error);
    expect(body.error_codes).toEqual([code]);
    expect(body.error_description.startsWith(description)).toBe(true);
    expect(body.error_description).toMatch(/\r\nTrace ID: [0-9a-f-]{36}\r\nCorrelation ID: [0-9a-f-]{36}\r\nTimestamp: /);
  });

  it('finds the tenant by its domain too, and issues tokens of the lifetime set', async () => {
    await fetch(`${standIn.url}/_stand-in/token-lifetime`, { method: 'POST', body: JSON.stringify({ seconds: 120 }) });
    const res = await token(demoForm(), 'DemoSchool.onmicrosoft.com');
    expect(((await res.json()) as { expires_in: number }).expires_in).toBe(120);
  });

  it('serves the discovery MSAL reads when it is not given the metadata', async () => {
    // MSAL insists on an https authority: a network client maps it to the stand-in's http address (as the adapter's).
    const host = new URL(standIn.url).host;
    const networkClient: INetworkModule = {
      sendGetRequestAsync: <T>(url: string, options?: NetworkRequestOptions) => send<T>('GET', url, options),
      sendPostRequestAsync: <T>(url: string, options?: NetworkRequestOptions) => send<T>('POST', url, options),
    };
    const seen: string[] = [];
    const send = async <T>(method: string, url: string, options?: NetworkRequestOptions): Promise<NetworkResponse<T>> => {
      const target = url.replace(`https://${host}`, standIn.url);
      seen.push(`${method} ${new URL(target).pathname}`);
      const res = await fetch(target, { method, ...(options?.headers ? { headers: options.headers } : {}), ...(options?.body ? { body: options.body } : {}) });
      return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: (await res.json()) as T };
    };
    const app = new ConfidentialClientApplication({
      auth: { clientId: demo.clientId, clientSecret: demo.clientSecret, authority: `https://${host}/${demo.tenantId}`, knownAuthorities: [host] },
      system: { networkClient },
    });
    const result = await app.acquireTokenByClientCredential({ scopes: ['https://graph.microsoft.com/.default'] });
    expect(result?.accessToken).toBeTruthy();
    expect(seen).toEqual([`GET /${demo.tenantId}/v2.0/.well-known/openid-configuration`, `POST /${demo.tenantId}/oauth2/v2.0/token`]);
  });
});

describe('the Microsoft Graph stand-in', () => {
  it('refuses a missing, unknown or expired token with InvalidAuthenticationToken', async () => {
    const missing = await fetch(`${standIn.url}/v1.0/users/${demo.organizerEmail}`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('InvalidAuthenticationToken');
    expect((await graph('GET', `/users/${demo.organizerEmail}`, undefined, 'made-up')).status).toBe(401);
    const bearer = await accessToken();
    expect((await graph('GET', `/users/${demo.organizerEmail}`, undefined, bearer)).status).toBe(200);
    await fetch(`${standIn.url}/_stand-in/expire-tokens`, { method: 'POST' });
    const expired = await graph('GET', `/users/${demo.organizerEmail}`, undefined, bearer);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: { code: 'InvalidAuthenticationToken', message: 'Lifetime validation failed, the token is expired.' } });
  });

  it('answers an unknown user as the directory (Request_ResourceNotFound) and the mailbox (ErrorInvalidUser) do', async () => {
    const user = await graph('GET', '/users/nobody@demoschool.onmicrosoft.com');
    expect(user.status).toBe(404);
    expect(((await user.json()) as { error: { code: string } }).error.code).toBe('Request_ResourceNotFound');
    const calendar = await graph('GET', '/users/nobody@demoschool.onmicrosoft.com/calendar');
    expect(calendar.status).toBe(404);
    expect(((await calendar.json()) as { error: { code: string } }).error.code).toBe('ErrorInvalidUser');
  });

  it('keeps an event with its Teams meeting, shows it in the viewer, and answers 404 ErrorItemNotFound once deleted', async () => {
    const created = await graph('POST', `/users/${demo.organizerEmail}/events`, {
      subject: 'Office hours <live>',
      start: { dateTime: '2030-01-01T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-01-01T10:00:00', timeZone: 'UTC' },
      isOnlineMeeting: true,
      onlineMeetingProvider: 'teamsForBusiness',
    });
    expect(created.status).toBe(201);
    const event = (await created.json()) as { id: string; onlineMeeting: { joinUrl: string }; start: { dateTime: string } };
    expect(event.start.dateTime).toBe('2030-01-01T09:00:00.0000000');
    const viewer = await (await fetch(`${standIn.url}/`)).text();
    expect(viewer).toContain('Office hours &#60;live&#62;');
    expect(viewer).toContain(event.onlineMeeting.joinUrl);

    expect((await graph('DELETE', `/users/${demo.organizerEmail}/events/${encodeURIComponent(event.id)}`)).status).toBe(204);
    const gone = await graph('GET', `/users/${demo.organizerEmail}/events/${encodeURIComponent(event.id)}`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('ErrorItemNotFound');
    expect(await (await fetch(event.onlineMeeting.joinUrl)).text()).toContain('was cancelled by its organiser');
  });

  it('refuses an end before the start and a filter it does not know', async () => {
    const backwards = await graph('POST', `/users/${demo.organizerEmail}/events`, { subject: 'x', start: { dateTime: '2030-01-01T10:00:00', timeZone: 'UTC' }, end: { dateTime: '2030-01-01T09:00:00', timeZone: 'UTC' } });
    expect(backwards.status).toBe(400);
    expect((await graph('GET', `/users/${demo.organizerEmail}/events?$filter=${encodeURIComponent("subject eq 'x'")}`)).status).toBe(400);
  });
});

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SaveIntegrationsBody } from '#contracts/integrations.ts';
import { integrationKeys } from '#data/integrations.ts';
import { resetConfig } from '#functions/config.ts';
import { handler as saveHandler } from '#functions/http/save-integrations.ts';
import { apiEvent, lambdaContext, parse } from '#test/functions/http-event.ts';
import { accountWithRole, api, dynamo, outputs, useLocalCloudEnv } from './support.ts';

/** Live Session Integrations end to end: the gateway, the handlers, the local key file and DynamoDB Local. */
const off: SaveIntegrationsBody = {
  zoom: { enabled: false, apiKey: '', accountId: '' },
  teams: { enabled: false, clientId: '' },
  googleCalendar: { enabled: false, calendarId: '' },
};
const secretOf = (tag: string) => `s3cr3t-${tag}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const zoomOn = (apiSecret?: string): SaveIntegrationsBody => ({
  ...off,
  zoom: { enabled: true, apiKey: 'zoom-api-key', accountId: 'zoom-account', ...(apiSecret === undefined ? {} : { apiSecret }) },
});

const storedItem = async (creatorId: string) =>
  (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: integrationKeys.integrations(creatorId), ConsistentRead: true }))).Item;

describe('live session integrations', () => {
  it('answers every service off and empty before the first save', async () => {
    const creator = await accountWithRole('creator', 'integrations');
    const res = await api('GET', '/api/integrations', { token: creator.token });
    expect(res).toEqual({
      status: 200,
      body: {
        zoom: { enabled: false, apiKey: '', apiSecretSet: false, accountId: '', status: 'off' },
        teams: { enabled: false, tenantId: '', clientId: '', clientSecretSet: false, organizerEmail: '', status: 'off' },
        googleCalendar: { enabled: false, calendarId: '', consented: false, status: 'off' },
        updatedAt: null,
      },
    });
  });

  it('saves secrets that no answer and no stored attribute ever shows, and keeps a secret the next save omits', async () => {
    const creator = await accountWithRole('creator', 'integrations');
    const zoomSecret = secretOf('zoom');
    const teamsSecret = secretOf('teams');
    const body: SaveIntegrationsBody = {
      zoom: { enabled: true, apiKey: 'zoom-api-key', apiSecret: zoomSecret, accountId: 'zoom-account' },
      teams: { enabled: true, tenantId: 'teams-tenant', clientId: 'teams-client', clientSecret: teamsSecret, organizerEmail: 'host@example.com' },
      googleCalendar: { enabled: true, calendarId: 'team@example.com' },
    };

    const saved = await api('PUT', '/api/integrations', { token: creator.token, body });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      zoom: { enabled: true, apiKey: 'zoom-api-key', apiSecretSet: true, accountId: 'zoom-account' },
      teams: { enabled: true, tenantId: 'teams-tenant', clientId: 'teams-client', clientSecretSet: true, organizerEmail: 'host@example.com' },
      googleCalendar: { enabled: true, calendarId: 'team@example.com', consented: false },
    });
    const read = await api('GET', '/api/integrations', { token: creator.token });
    expect(read.body).toEqual(saved.body);
    for (const text of [JSON.stringify(saved.body), JSON.stringify(read.body)]) {
      expect(text).not.toContain(zoomSecret);
      expect(text).not.toContain(teamsSecret);
    }

    const item = JSON.stringify(await storedItem(creator.id));
    expect(item).not.toContain(zoomSecret);
    expect(item).not.toContain(teamsSecret);
    expect(item).toContain('encryptedDataKey');

    const again = await api('PUT', '/api/integrations', { token: creator.token, body: { ...body, zoom: { ...body.zoom, apiSecret: undefined }, teams: { enabled: true, clientId: 'teams-client' } } });
    // An older client that sends no tenant or organiser keeps the stored ones.
    expect(again.status).toBe(200);
    expect(again.body.zoom.apiSecretSet).toBe(true);
    expect(again.body.teams.clientSecretSet).toBe(true);
    expect(again.body.teams).toMatchObject({ tenantId: 'teams-tenant', organizerEmail: 'host@example.com' });
  });

  it('refuses to enable a service without its fields, saying which', async () => {
    const creator = await accountWithRole('creator', 'integrations');
    const res = await api('PUT', '/api/integrations', { token: creator.token, body: zoomOn() });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('To enable Zoom, enter its API Secret.');
    expect((await api('GET', '/api/integrations', { token: creator.token })).body.zoom.enabled).toBe(false);
  });

  it('is for creators only', async () => {
    for (const role of ['learner', 'admin'] as const) {
      const other = await accountWithRole(role, `integrations-${role}`);
      expect((await api('GET', '/api/integrations', { token: other.token })).status).toBe(403);
      expect((await api('PUT', '/api/integrations', { token: other.token, body: zoomOn(secretOf(role)) })).status).toBe(403);
    }
    expect((await api('GET', '/api/integrations')).status).toBe(401);
  });
});

describe('the integration secrets and the logs', () => {
  const level = process.env['LOG_LEVEL'];
  afterEach(() => {
    vi.restoreAllMocks();
    if (level === undefined) delete process.env['LOG_LEVEL'];
    else process.env['LOG_LEVEL'] = level;
    resetConfig();
  });

  it('never writes a secret into a log line, on success or on a refusal, even at debug level', async () => {
    const creator = await accountWithRole('creator', 'integrations-logs');
    useLocalCloudEnv();
    process.env['LOG_LEVEL'] = 'debug';
    resetConfig();
    const lines: string[] = [];
    const capture = ((chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    vi.spyOn(console, 'log').mockImplementation((...args) => void lines.push(args.map(String).join(' ')));
    vi.spyOn(console, 'info').mockImplementation((...args) => void lines.push(args.map(String).join(' ')));
    vi.spyOn(console, 'warn').mockImplementation((...args) => void lines.push(args.map(String).join(' ')));
    vi.spyOn(console, 'error').mockImplementation((...args) => void lines.push(args.map(String).join(' ')));

    const secret = secretOf('logged');
    const put = (body: unknown) =>
      saveHandler(apiEvent({ routeKey: 'PUT /api/integrations', sub: creator.id, groups: ['creator'], body: JSON.stringify(body) }), lambdaContext);
    const ok = parse(await put(zoomOn(secret)));
    const refused = parse(await put({ ...off, teams: { enabled: true, clientId: '', clientSecret: secret } }));
    const malformed = parse(await put({ ...zoomOn(secret), unexpected: secret }));
    vi.restoreAllMocks();

    expect([ok.status, refused.status, malformed.status]).toEqual([200, 400, 400]);
    const logged = lines.join('\n');
    expect(logged).toContain('/api/integrations');
    expect(logged).not.toContain(secret);
    expect(JSON.stringify([ok.body, refused.body, malformed.body])).not.toContain(secret);
  });
});

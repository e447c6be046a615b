import { beforeAll, describe, expect, it } from 'vitest';
import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import type { StoredIntegrations } from '#core/integrations/ports.ts';
import { dynamoIntegrations, integrationKeys } from '#data/integrations.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = '2026-11-21T12:00:00.000Z';

describe('the integrations (DynamoDB Local)', () => {
  it('reads nothing for a creator who never saved, then the item as saved, with the secret only sealed', async () => {
    const repo = dynamoIntegrations();
    const creatorId = unique('integrations');
    expect(await repo.get(creatorId)).toBeUndefined();

    // The local cloud's cipher (its key file), as the handler uses it.
    const apiSecret = await envelopeCipher().encrypt('zoom-secret-in-data-test', creatorId);
    const integrations: StoredIntegrations = {
      zoom: { enabled: true, apiKey: 'zoom-key', accountId: 'acct-1', apiSecret },
      teams: { enabled: false, tenantId: '', clientId: '', clientSecret: null, organizerEmail: '' },
      googleCalendar: { enabled: true, calendarId: 'team@example.com', refreshToken: null, check: { ok: false, error: 'Google refused the consent.', checkedAt: at } },
      updatedAt: at,
    };
    await repo.put(creatorId, integrations);

    expect(await repo.get(creatorId)).toEqual(integrations);
    const raw = await rawItem(integrationKeys.integrations(creatorId));
    expect(raw).toMatchObject({ pk: `CREATOR#${creatorId}`, sk: 'INTEGRATIONS', type: 'Integrations' });
    expect(JSON.stringify(raw)).not.toContain('zoom-secret-in-data-test');
    expect(await envelopeCipher().decrypt(raw!['zoom'].apiSecret, creatorId)).toBe('zoom-secret-in-data-test');
  });

  it("stores a test's outcome on its provider alone, and nothing for a creator who never saved", async () => {
    const repo = dynamoIntegrations();
    const creatorId = unique('integrations');
    await repo.saveCheck(creatorId, 'zoom', { ok: true, checkedAt: at });
    expect(await repo.get(creatorId)).toBeUndefined();

    const saved: StoredIntegrations = {
      zoom: { enabled: true, apiKey: 'zoom-key', accountId: 'acct-1', apiSecret: null, check: { ok: false, error: 'refused', checkedAt: at } },
      teams: { enabled: false, tenantId: '', clientId: '', clientSecret: null, organizerEmail: '' },
      googleCalendar: { enabled: false, calendarId: '', refreshToken: null },
      updatedAt: at,
    };
    await repo.put(creatorId, saved);
    const later = '2026-11-21T12:05:00.000Z';
    await repo.saveCheck(creatorId, 'zoom', { ok: true, checkedAt: later });
    await repo.saveCheck(creatorId, 'googleCalendar', { ok: false, error: 'Connect Google Calendar.', checkedAt: later });
    expect(await repo.get(creatorId)).toEqual({
      ...saved,
      zoom: { ...saved.zoom, check: { ok: true, checkedAt: later } },
      googleCalendar: { ...saved.googleCalendar, check: { ok: false, error: 'Connect Google Calendar.', checkedAt: later } },
    });
  });

  it('replaces the item on the next save', async () => {
    const repo = dynamoIntegrations();
    const creatorId = unique('integrations');
    const off: StoredIntegrations = {
      zoom: { enabled: false, apiKey: '', accountId: '', apiSecret: null },
      teams: { enabled: false, tenantId: '', clientId: '', clientSecret: null, organizerEmail: '' },
      googleCalendar: { enabled: false, calendarId: '', refreshToken: null },
      updatedAt: at,
    };
    await repo.put(creatorId, { ...off, googleCalendar: { enabled: true, calendarId: 'a@example.com', refreshToken: null } });
    await repo.put(creatorId, off);
    expect(await repo.get(creatorId)).toEqual(off);
  });

  it('reads an item saved before live sessions (no tenant, organiser, refresh token or check) with those empty', async () => {
    const creatorId = unique('integrations');
    await putRaw({
      ...integrationKeys.integrations(creatorId),
      type: 'Integrations',
      zoom: { enabled: false, apiKey: 'k', accountId: '', apiSecret: null },
      teams: { enabled: false, clientId: 'c', clientSecret: null },
      googleCalendar: { enabled: true, calendarId: 'cal@example.com' },
      updatedAt: at,
    });
    expect(await dynamoIntegrations().get(creatorId)).toEqual({
      zoom: { enabled: false, apiKey: 'k', accountId: '', apiSecret: null },
      teams: { enabled: false, tenantId: '', clientId: 'c', clientSecret: null, organizerEmail: '' },
      googleCalendar: { enabled: true, calendarId: 'cal@example.com', refreshToken: null },
      updatedAt: at,
    });
  });

  it('treats a malformed item (a secret stored in plain text) as an error', async () => {
    const creatorId = unique('integrations');
    await putRaw({
      ...integrationKeys.integrations(creatorId),
      type: 'Integrations',
      zoom: { enabled: true, apiKey: 'k', accountId: '', apiSecret: 'plain-text-secret' },
      teams: { enabled: false, clientId: '', clientSecret: null },
      googleCalendar: { enabled: false, calendarId: '' },
      updatedAt: at,
    });
    await expect(dynamoIntegrations().get(creatorId)).rejects.toThrow();
  });
});

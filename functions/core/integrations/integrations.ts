import { integrationNames, type ConnectionStatus, type IntegrationsView, type SaveIntegrationsBody } from '#contracts/integrations.ts';
import { ValidationError } from '#core/errors.ts';
import { runCheck, type ConnectionDeps, type FreshSecrets } from '#core/integrations/connections.ts';
import type { IntegrationRepository, ProviderCheck, StoredIntegrations } from '#core/integrations/ports.ts';
import type { SealedSecret, SecretCipher } from '#core/ports.ts';

export type SaveIntegrationsDeps = ConnectionDeps;

/** Before the first save: every service off, every field empty, no secret. */
export const DEFAULT_INTEGRATIONS: IntegrationsView = {
  zoom: { enabled: false, apiKey: '', apiSecretSet: false, accountId: '', status: 'off' },
  teams: { enabled: false, tenantId: '', clientId: '', clientSecretSet: false, organizerEmail: '', status: 'off' },
  googleCalendar: { enabled: false, calendarId: '', consented: false, status: 'off' },
  updatedAt: null,
};

/** A check never made (settings saved before issue 30): switched on, but not known to work. */
export const NOT_CHECKED = 'Not checked yet: use Test connection.';

/** Off while switched off; otherwise what the last real check said. */
const connectionOf = (enabled: boolean, check: ProviderCheck | undefined): { status: ConnectionStatus; error?: string } => {
  if (!enabled) return { status: 'off' };
  if (check?.ok) return { status: 'connected' };
  return { status: 'error', error: check?.error ?? NOT_CHECKED };
};

/** What the API shows of stored integrations: the secrets only as "one is stored", the refresh token as "consented". */
export const integrationsView = (stored: StoredIntegrations | undefined): IntegrationsView =>
  stored
    ? {
        zoom: {
          enabled: stored.zoom.enabled,
          apiKey: stored.zoom.apiKey,
          apiSecretSet: stored.zoom.apiSecret !== null,
          accountId: stored.zoom.accountId,
          ...connectionOf(stored.zoom.enabled, stored.zoom.check),
        },
        teams: {
          enabled: stored.teams.enabled,
          tenantId: stored.teams.tenantId,
          clientId: stored.teams.clientId,
          clientSecretSet: stored.teams.clientSecret !== null,
          organizerEmail: stored.teams.organizerEmail,
          ...connectionOf(stored.teams.enabled, stored.teams.check),
        },
        googleCalendar: {
          enabled: stored.googleCalendar.enabled,
          calendarId: stored.googleCalendar.calendarId,
          consented: stored.googleCalendar.refreshToken !== null,
          ...connectionOf(stored.googleCalendar.enabled, stored.googleCalendar.check),
        },
        updatedAt: stored.updatedAt,
      }
    : DEFAULT_INTEGRATIONS;

/** GET /api/integrations: the defaults before the first save. Never a secret. */
export const getIntegrations = async (deps: { integrations: IntegrationRepository }, creatorId: string): Promise<IntegrationsView> =>
  integrationsView(await deps.integrations.get(creatorId));

/**
 * A secret field of a PUT against the stored one: a new value is sealed for this creator; omitted or blank keeps the
 * stored one (the form shows a saved secret as an empty field); null removes it.
 */
type SecretChange = { kind: 'keep'; stored: SealedSecret | null } | { kind: 'seal'; plaintext: string };

const secretChange = (given: string | null | undefined, stored: SealedSecret | null | undefined): SecretChange => {
  if (given === null) return { kind: 'keep', stored: null };
  if (given === undefined || given === '') return { kind: 'keep', stored: stored ?? null };
  return { kind: 'seal', plaintext: given };
};

const present = (change: SecretChange) => change.kind === 'seal' || change.stored !== null;

const applied = async (cipher: SecretCipher, creatorId: string, change: SecretChange): Promise<SealedSecret | null> =>
  change.kind === 'seal' ? cipher.encrypt(change.plaintext, creatorId) : change.stored;

interface Missing {
  path: string;
  message: string;
}

/**
 * Enabling a service requires its fields (a stored secret counts; Teams' tenant and organiser a client did not send
 * are the stored ones); a switched-off service may keep or lack them. Google's consent is not a field: without it
 * Google is saved switched on and shown with the reason it is not connected.
 */
const missingFields = (body: SaveIntegrationsBody, zoomSecret: boolean, teamsSecret: boolean, teams: { tenantId: string; organizerEmail: string }, zoomAccountId: string): Missing[] => {
  const missing: Missing[] = [];
  const need = (on: boolean, isPresent: boolean, path: string, service: keyof typeof integrationNames, label: string) => {
    if (on && !isPresent) missing.push({ path, message: `To enable ${integrationNames[service]}, enter its ${label}.` });
  };
  need(body.zoom.enabled, body.zoom.apiKey !== '', 'zoom.apiKey', 'zoom', 'API Key');
  need(body.zoom.enabled, zoomSecret, 'zoom.apiSecret', 'zoom', 'API Secret');
  need(body.zoom.enabled, zoomAccountId !== '', 'zoom.accountId', 'zoom', 'Account ID');
  need(body.teams.enabled, teams.tenantId !== '', 'teams.tenantId', 'teams', 'Tenant ID');
  need(body.teams.enabled, body.teams.clientId !== '', 'teams.clientId', 'teams', 'Client ID');
  need(body.teams.enabled, teamsSecret, 'teams.clientSecret', 'teams', 'Client Secret');
  need(body.teams.enabled, teams.organizerEmail !== '', 'teams.organizerEmail', 'teams', 'Organizer email');
  need(body.googleCalendar.enabled, body.googleCalendar.calendarId !== '', 'googleCalendar.calendarId', 'googleCalendar', 'Calendar ID');
  return missing;
};

/**
 * PUT /api/integrations: the whole settings replace the stored ones, except the secrets (see secretChange). A service
 * switched off keeps its fields and secret, so switching it back on needs nothing retyped (a user clears a field to
 * forget it, or sends a secret as null). When a switched-on service lacks a field nothing is sealed or written: 400,
 * each missing field named. Then each switched-on provider is checked for real, in parallel, each within
 * CHECK_DEADLINE_MS, and the outcomes are saved with the settings: a refusal or an outage is not a failed save, it is
 * the provider's status (`error`, with the reason). A switched-off provider keeps no check.
 */
export const saveIntegrations = async (
  deps: SaveIntegrationsDeps,
  input: { creatorId: string; body: SaveIntegrationsBody },
): Promise<IntegrationsView> => {
  const { creatorId, body } = input;
  const stored = await deps.integrations.get(creatorId);
  const zoomSecret = secretChange(body.zoom.apiSecret, stored?.zoom.apiSecret);
  const teamsSecret = secretChange(body.teams.clientSecret, stored?.teams.clientSecret);
  // An older client that does not know these fields keeps the stored ones.
  const teams = { tenantId: body.teams.tenantId ?? stored?.teams.tenantId ?? '', organizerEmail: body.teams.organizerEmail ?? stored?.teams.organizerEmail ?? '' };
  const zoomAccountId = body.zoom.accountId ?? stored?.zoom.accountId ?? '';
  const missing = missingFields(body, present(zoomSecret), present(teamsSecret), teams, zoomAccountId);
  if (missing.length > 0) throw new ValidationError(missing.map((m) => m.message).join(' '), missing);

  const saved: StoredIntegrations = {
    zoom: {
      enabled: body.zoom.enabled,
      apiKey: body.zoom.apiKey,
      // An older client that does not know the account id keeps the stored one.
      accountId: zoomAccountId,
      apiSecret: await applied(deps.cipher, creatorId, zoomSecret),
    },
    teams: {
      enabled: body.teams.enabled,
      tenantId: teams.tenantId,
      clientId: body.teams.clientId,
      clientSecret: await applied(deps.cipher, creatorId, teamsSecret),
      organizerEmail: teams.organizerEmail,
    },
    googleCalendar: {
      enabled: body.googleCalendar.enabled,
      calendarId: body.googleCalendar.calendarId,
      refreshToken: stored?.googleCalendar.refreshToken ?? null,
    },
    updatedAt: deps.clock.now().toISOString(),
  };
  const fresh: FreshSecrets = {
    ...(zoomSecret.kind === 'seal' ? { zoom: zoomSecret.plaintext } : {}),
    ...(teamsSecret.kind === 'seal' ? { teams: teamsSecret.plaintext } : {}),
  };
  const [zoomCheck, teamsCheck, googleCheck] = await Promise.all(
    ([['zoom', saved.zoom.enabled], ['teams', saved.teams.enabled], ['google', saved.googleCalendar.enabled]] as const).map(([provider, on]) =>
      on ? runCheck(deps, creatorId, saved, provider, fresh).then((outcome) => outcome.check) : undefined,
    ),
  );
  const checked: StoredIntegrations = {
    ...saved,
    zoom: { ...saved.zoom, ...(zoomCheck ? { check: zoomCheck } : {}) },
    teams: { ...saved.teams, ...(teamsCheck ? { check: teamsCheck } : {}) },
    googleCalendar: { ...saved.googleCalendar, ...(googleCheck ? { check: googleCheck } : {}) },
  };
  await deps.integrations.put(creatorId, checked);
  return integrationsView(checked);
};

import { integrationNames, type IntegrationsView, type SaveIntegrationsBody } from '#contracts/integrations.ts';
import { ValidationError } from '#core/errors.ts';
import type { IntegrationRepository, StoredIntegrations } from '#core/integrations/ports.ts';
import type { Clock, SealedSecret, SecretCipher } from '#core/ports.ts';

export interface SaveIntegrationsDeps {
  integrations: IntegrationRepository;
  cipher: SecretCipher;
  clock: Clock;
}

/** Before the first save: every service off, every field empty, no secret. */
export const DEFAULT_INTEGRATIONS: IntegrationsView = {
  zoom: { enabled: false, apiKey: '', apiSecretSet: false, accountId: '' },
  teams: { enabled: false, clientId: '', clientSecretSet: false },
  googleCalendar: { enabled: false, calendarId: '' },
  updatedAt: null,
};

/** What the API shows of stored integrations: the secrets only as "one is stored". */
export const integrationsView = (stored: StoredIntegrations | undefined): IntegrationsView =>
  stored
    ? {
        zoom: { enabled: stored.zoom.enabled, apiKey: stored.zoom.apiKey, apiSecretSet: stored.zoom.apiSecret !== null, accountId: stored.zoom.accountId },
        teams: { enabled: stored.teams.enabled, clientId: stored.teams.clientId, clientSecretSet: stored.teams.clientSecret !== null },
        // Never the sealed refresh token (nor anything else stored beside the settings).
        googleCalendar: { enabled: stored.googleCalendar.enabled, calendarId: stored.googleCalendar.calendarId },
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

/** Enabling a service requires its fields (a stored secret counts); a switched-off service may keep or lack them. */
const missingFields = (body: SaveIntegrationsBody, zoomSecret: boolean, teamsSecret: boolean): Missing[] => {
  const missing: Missing[] = [];
  const need = (on: boolean, isPresent: boolean, path: string, service: keyof typeof integrationNames, label: string) => {
    if (on && !isPresent) missing.push({ path, message: `To enable ${integrationNames[service]}, enter its ${label}.` });
  };
  need(body.zoom.enabled, body.zoom.apiKey !== '', 'zoom.apiKey', 'zoom', 'API Key');
  need(body.zoom.enabled, zoomSecret, 'zoom.apiSecret', 'zoom', 'API Secret');
  need(body.teams.enabled, body.teams.clientId !== '', 'teams.clientId', 'teams', 'Client ID');
  need(body.teams.enabled, teamsSecret, 'teams.clientSecret', 'teams', 'Client Secret');
  need(body.googleCalendar.enabled, body.googleCalendar.calendarId !== '', 'googleCalendar.calendarId', 'googleCalendar', 'Calendar ID');
  return missing;
};

/**
 * PUT /api/integrations: the whole settings replace the stored ones, except the secrets (see secretChange). A service
 * switched off keeps its fields and secret, so switching it back on needs nothing retyped (a user clears a field to
 * forget it, or sends a secret as null). When a switched-on service lacks a field nothing is sealed or written: 400,
 * each missing field named.
 */
export const saveIntegrations = async (
  deps: SaveIntegrationsDeps,
  input: { creatorId: string; body: SaveIntegrationsBody },
): Promise<IntegrationsView> => {
  const { creatorId, body } = input;
  const stored = await deps.integrations.get(creatorId);
  const zoomSecret = secretChange(body.zoom.apiSecret, stored?.zoom.apiSecret);
  const teamsSecret = secretChange(body.teams.clientSecret, stored?.teams.clientSecret);
  const missing = missingFields(body, present(zoomSecret), present(teamsSecret));
  if (missing.length > 0) throw new ValidationError(missing.map((m) => m.message).join(' '), missing);

  const saved: StoredIntegrations = {
    zoom: {
      enabled: body.zoom.enabled,
      apiKey: body.zoom.apiKey,
      // An older client that does not know the account id keeps the stored one.
      accountId: body.zoom.accountId ?? stored?.zoom.accountId ?? '',
      apiSecret: await applied(deps.cipher, creatorId, zoomSecret),
    },
    teams: {
      enabled: body.teams.enabled,
      tenantId: stored?.teams.tenantId ?? '',
      clientId: body.teams.clientId,
      clientSecret: await applied(deps.cipher, creatorId, teamsSecret),
      organizerEmail: stored?.teams.organizerEmail ?? '',
    },
    googleCalendar: {
      enabled: body.googleCalendar.enabled,
      calendarId: body.googleCalendar.calendarId,
      refreshToken: stored?.googleCalendar.refreshToken ?? null,
    },
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.integrations.put(creatorId, saved);
  return integrationsView(saved);
};

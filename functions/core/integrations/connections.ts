import { integrationNames, serviceOfProvider as serviceOf, type IntegrationProvider, type IntegrationTestAnswer } from '#contracts/integrations.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError, type AppError } from '#core/errors.ts';
import type { ConnectionChecks, IntegrationRepository, ProviderCheck, ProviderCredentials, StoredIntegrations } from '#core/integrations/ports.ts';
import type { Clock, SealedSecret, SecretCipher } from '#core/ports.ts';

/**
 * Real connections (issue 30, decision 0041): "Connected" means the provider gave a token and answered one API call
 * (`MeetingProvider.check`). A check runs on every save for each switched-on provider, and on demand through
 * `POST /api/integrations/{provider}/test`; its outcome is stored with the settings (`check`), and the view's status
 * follows it. Secrets are unsealed here, in the server, and handed to the provider adapter only.
 */
export interface ConnectionDeps {
  integrations: IntegrationRepository;
  cipher: SecretCipher;
  clock: Clock;
  providers: ConnectionChecks;
}

/** The whole check (token, call, one retry) never holds a save or a test longer than this, whatever the adapter does. */
export const CHECK_DEADLINE_MS = 20_000;

/** The plaintext of the secrets a check needs, where they are not sealed yet (a save's new values). */
export interface FreshSecrets {
  zoom?: string;
  teams?: string;
}

const unseal = (cipher: SecretCipher, creatorId: string, sealed: SealedSecret | null, fresh: string | undefined) =>
  fresh !== undefined ? Promise.resolve(fresh) : sealed ? cipher.decrypt(sealed, creatorId) : Promise.resolve(undefined);

/**
 * The credentials a provider needs, unsealed, or why they are not complete (in the words the form uses).
 */
export const credentialsOf = async (
  cipher: SecretCipher,
  creatorId: string,
  stored: StoredIntegrations,
  provider: IntegrationProvider,
  fresh: FreshSecrets = {},
): Promise<ProviderCredentials | { missing: string }> => {
  switch (provider) {
    case 'zoom': {
      const { accountId, apiKey } = stored.zoom;
      const secret = await unseal(cipher, creatorId, stored.zoom.apiSecret, fresh.zoom);
      if (!accountId || !apiKey || !secret) return { missing: 'Enter the Account ID, API Key and API Secret of your Zoom Server-to-Server OAuth app, then save.' };
      return { provider: 'zoom', accountId, clientId: apiKey, clientSecret: secret };
    }
    case 'teams': {
      const { tenantId, clientId, organizerEmail } = stored.teams;
      const secret = await unseal(cipher, creatorId, stored.teams.clientSecret, fresh.teams);
      if (!tenantId || !clientId || !secret || !organizerEmail) {
        return { missing: 'Enter the Tenant ID, Client ID, Client Secret and Organizer email of your Microsoft app registration, then save.' };
      }
      return { provider: 'teams', tenantId, clientId, clientSecret: secret, organizerEmail };
    }
    case 'google': {
      const { calendarId, refreshToken } = stored.googleCalendar;
      if (!refreshToken) return { missing: 'Connect Google Calendar to give access to your calendar.' };
      if (!calendarId) return { missing: 'Enter the Calendar ID of the calendar to use, then save.' };
      return { provider: 'google', refreshToken: await cipher.decrypt(refreshToken, creatorId), calendarId };
    }
  }
};

/** The outcome of one check: a refusal or an outage in plain words; an outage is also passed back (the test route's 502). */
interface CheckOutcome {
  check: ProviderCheck;
  unavailable?: AppError;
}

const withDeadline = async (work: Promise<void>, provider: IntegrationProvider, deadlineMs: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ProviderUnavailableError(provider, `${integrationNames[serviceOf[provider]]} did not answer within ${deadlineMs / 1000} s.`)),
      deadlineMs,
    );
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
};

export const runCheck = async (
  deps: Pick<ConnectionDeps, 'cipher' | 'clock' | 'providers'>,
  creatorId: string,
  stored: StoredIntegrations,
  provider: IntegrationProvider,
  fresh: FreshSecrets = {},
  deadlineMs = CHECK_DEADLINE_MS,
): Promise<CheckOutcome> => {
  const at = () => deps.clock.now().toISOString();
  const credentials = await credentialsOf(deps.cipher, creatorId, stored, provider, fresh);
  if ('missing' in credentials) return { check: { ok: false, error: credentials.missing, checkedAt: at() } };
  try {
    await withDeadline(deps.providers.check(creatorId, credentials), provider, deadlineMs);
    return { check: { ok: true, checkedAt: at() } };
  } catch (error) {
    if (error instanceof IntegrationNotConnectedError) return { check: { ok: false, error: error.message, checkedAt: at() } };
    if (error instanceof ProviderUnavailableError) return { check: { ok: false, error: error.message, checkedAt: at() }, unavailable: error };
    throw error;
  }
};

/**
 * POST /api/integrations/{provider}/test: a real check with the saved credentials, its outcome stored. A provider that
 * is down or late is 502 naming it (the outcome is stored first, so the screen shows why).
 */
export const testIntegration = async (
  deps: ConnectionDeps,
  input: { creatorId: string; provider: IntegrationProvider },
): Promise<IntegrationTestAnswer> => {
  const stored = await deps.integrations.get(input.creatorId);
  if (!stored) {
    const name = integrationNames[serviceOf[input.provider]];
    return { ok: false, error: `${name} is not set up yet: enter its settings and save.` };
  }
  const outcome = await runCheck(deps, input.creatorId, stored, input.provider);
  await deps.integrations.saveCheck(input.creatorId, serviceOf[input.provider], outcome.check);
  if (outcome.unavailable) throw outcome.unavailable;
  return outcome.check.ok ? { ok: true } : { ok: false, error: outcome.check.error ?? 'The connection failed.' };
};

/**
 * The unsealed credentials of a switched-on provider, for the live sessions (the composition can back core/live-sessions'
 * credential source with it): IntegrationNotConnectedError, in words the creator can act on, when the provider is
 * switched off or lacks a field or (Google) the consent.
 */
export const connectedCredentials = async (
  deps: Pick<ConnectionDeps, 'integrations' | 'cipher'>,
  creatorId: string,
  provider: IntegrationProvider,
): Promise<ProviderCredentials> => {
  const stored = await deps.integrations.get(creatorId);
  const name = integrationNames[serviceOf[provider]];
  if (!stored?.[serviceOf[provider]].enabled) {
    throw new IntegrationNotConnectedError(provider, `${name} is not connected: switch it on in Live Session Integrations and save.`);
  }
  const credentials = await credentialsOf(deps.cipher, creatorId, stored, provider);
  if ('missing' in credentials) throw new IntegrationNotConnectedError(provider, credentials.missing);
  return credentials;
};

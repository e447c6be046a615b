import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import type { ConnectionDeps } from '#core/integrations/connections.ts';
import { googleConsent } from '#adapters/google-calendar-meetings.ts';
import type { GoogleCallbackDeps, GoogleConsentDeps } from '#core/integrations/google-consent.ts';
import type { ConnectionChecks, IntegrationRepository } from '#core/integrations/ports.ts';
import type { SecretCipher } from '#core/ports.ts';
import { dynamoIntegrations } from '#data/integrations.ts';
import { meetingProviders } from '#functions/composition/meeting-providers.ts';
import { clock } from '#functions/composition/deps.ts';
import { required } from '#functions/config.ts';

/**
 * The composition of the integrations handlers. The cipher (and so the KMS client) and the providers' adapters are
 * only built by the saving and testing handlers: reading never needs a secret, so GET carries neither, no key grant
 * and no provider SDK.
 */
let integrations: IntegrationRepository | undefined;
let cipher: SecretCipher | undefined;

export const integrationRepository = (): IntegrationRepository => (integrations ??= dynamoIntegrations());

/** The integrations see only the check; the adapters behind it are the live sessions' own. */
const connectionChecks: ConnectionChecks = { check: async (creatorId, credentials) => meetingProviders().connect(creatorId, credentials).check() };

/** Saving and testing: the cipher (secrets sealed and unsealed in the server only) and the providers' adapters. */
export const connectionDeps = (): ConnectionDeps => ({
  integrations: integrationRepository(),
  cipher: (cipher ??= envelopeCipher()),
  clock,
  providers: connectionChecks,
});

export const saveIntegrationsDeps = connectionDeps;

/** Google's consent flow (issue 30): the platform's Google client, the cipher for the state and the refresh token. */
export const googleConsentDeps = (): GoogleConsentDeps => ({
  consent: googleConsent,
  cipher: (cipher ??= envelopeCipher()),
  clock,
  appOrigin: required('APP_ORIGIN'),
});

export const googleCallbackDeps = (): GoogleCallbackDeps => ({
  ...googleConsentDeps(),
  integrations: integrationRepository(),
  // The same check as a save's and a test's (Google's `check()` with the new consent's credentials).
  providers: connectionChecks,
});

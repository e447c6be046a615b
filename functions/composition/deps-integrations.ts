import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import { googleConsent } from '#adapters/google-calendar-meetings.ts';
import type { GoogleCallbackDeps, GoogleConsentDeps } from '#core/integrations/google-consent.ts';
import type { SaveIntegrationsDeps } from '#core/integrations/integrations.ts';
import type { IntegrationRepository } from '#core/integrations/ports.ts';
import type { SecretCipher } from '#core/ports.ts';
import { dynamoIntegrations } from '#data/integrations.ts';
import { meetingProviders } from '#functions/composition/deps-live-sessions.ts';
import { clock } from '#functions/composition/deps.ts';
import { required } from '#functions/config.ts';

/**
 * The composition of the integrations handlers. The cipher (and so the KMS client) is only built by the saving
 * handler: reading never needs a secret, so GET carries no KMS client and has no key grant.
 */
let integrations: IntegrationRepository | undefined;
let cipher: SecretCipher | undefined;

export const integrationRepository = (): IntegrationRepository => (integrations ??= dynamoIntegrations());

export const saveIntegrationsDeps = (): SaveIntegrationsDeps => ({
  integrations: integrationRepository(),
  cipher: (cipher ??= envelopeCipher()),
  clock,
});

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
  checkCalendar: (creatorId, credentials) => meetingProviders().connect(creatorId, { provider: 'google', ...credentials }).check(),
});

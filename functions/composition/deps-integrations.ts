import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import type { SaveIntegrationsDeps } from '#core/integrations/integrations.ts';
import type { IntegrationRepository } from '#core/integrations/ports.ts';
import type { SecretCipher } from '#core/ports.ts';
import { dynamoIntegrations } from '#data/integrations.ts';
import { clock } from '#functions/composition/deps.ts';

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

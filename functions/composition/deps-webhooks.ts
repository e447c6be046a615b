import { randomBytes } from 'node:crypto';
import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import type { SecretCipher } from '#core/ports.ts';
import type { WebhookEndpointDeps, WebhookEndpointRepository } from '#core/webhooks/ports.ts';
import { dynamoWebhookEndpoints } from '#data/webhooks.ts';
import { clock, ids } from '#functions/composition/deps.ts';
import { config } from '#functions/config.ts';

/** Webhooks (issue 31 points 4-5, decision 0053): the endpoints' routes. Only creating seals a secret (the cipher). */
let endpoints: WebhookEndpointRepository | undefined;
let cipher: SecretCipher | undefined;
export const webhookEndpointRepository = (): WebhookEndpointRepository => (endpoints ??= dynamoWebhookEndpoints());

/** The local cloud's `http://127.0.0.1:<port>` exception; never set in AWS. */
export const allowLocalWebhookHttp = (): boolean => config().WEBHOOK_ALLOW_LOCAL_HTTP === 'true';

export const webhookEndpointDeps = (): WebhookEndpointDeps => ({
  endpoints: webhookEndpointRepository(),
  cipher: (cipher ??= envelopeCipher()),
  clock,
  ids,
  // 32 random bytes, base64: the Standard Webhooks secret (its base64 part is the HMAC key).
  randomSecret: () => randomBytes(32).toString('base64'),
  allowLocalHttp: allowLocalWebhookHttp(),
});

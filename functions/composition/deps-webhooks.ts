import { randomBytes } from 'node:crypto';
import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { firstSlice } from '#core/jobs/slices.ts';
import type { SecretCipher } from '#core/ports.ts';
import { webhookHttp } from '#adapters/webhook-http.ts';
import type { WebhookDeliveryDeps, WebhookDeliveryRepository, WebhookEndpointDeps, WebhookEndpointRepository, WebhookSender } from '#core/webhooks/ports.ts';
import { dynamoWebhookDeliveries, dynamoWebhookEndpoints } from '#data/webhooks.ts';
import { appOrigin, clock, ids, userRepository } from '#functions/composition/deps.ts';
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

let deliveries: WebhookDeliveryRepository | undefined;
let sender: WebhookSender | undefined;
export const webhookDeliveryRepository = (): WebhookDeliveryRepository => (deliveries ??= dynamoWebhookDeliveries());

/**
 * Deliveries (the sweep, Retry now): the cipher opens the secret, the sender is SSRF-guarded; the creator's email and
 * the app's origin are for the notice of an endpoint disabled after failing for days.
 */
export const webhookDeliveryDeps = (): WebhookDeliveryDeps => {
  const firstRetryDelayS = config().WEBHOOK_FIRST_RETRY_DELAY_S;
  return {
    endpoints: webhookEndpointRepository(),
    deliveries: webhookDeliveryRepository(),
    cipher: (cipher ??= envelopeCipher()),
    sender: (sender ??= webhookHttp({ allowLocalHttp: allowLocalWebhookHttp() })),
    clock,
    ids,
    users: userRepository(),
    appOrigin: appOrigin(),
    ...(firstRetryDelayS === undefined ? {} : { firstRetryDelayS }),
  };
};

/** A run of the 'webhook-deliveries' job, started at once (the stream's reaction, for the deliveries it wrote). */
export const startWebhookDeliveries = (key: string): Promise<void> => sqsSliceQueue().send([firstSlice('webhook-deliveries', `webhook-deliveries@${key}`)]);

import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_SECRET_PREFIX, type CreateWebhookEndpointBody, type CreatedWebhookEndpoint, type WebhookEndpointView } from '#contracts/webhooks.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { webhookUrlProblem } from '#core/webhooks/address-guard.ts';
import type { StoredWebhookEndpoint, WebhookEndpointDeps } from '#core/webhooks/ports.ts';

export const webhookEndpointLimitMessage = `You can have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints. Delete one you no longer use first.`;

/** The context a secret is sealed under: the creator and the endpoint, so a sealed secret opens for that endpoint only. */
export const webhookSecretContext = (creatorId: string, endpointId: string): string => `${creatorId}#webhook#${endpointId}`;

export const toEndpointView = (e: StoredWebhookEndpoint): WebhookEndpointView => ({ id: e.id, url: e.url, events: [...e.events], createdAt: e.createdAt, disabledAt: e.disabledAt });

/**
 * Use case: a new endpoint for the creator. The URL must be https and public (checked again before every delivery);
 * the secret (`whsec_` + base64 of random bytes) is shown this once and kept sealed, so the deliverer can sign with it.
 */
export const createWebhookEndpoint = async (deps: WebhookEndpointDeps, input: { creatorId: string; body: CreateWebhookEndpointBody }): Promise<CreatedWebhookEndpoint> => {
  const problem = webhookUrlProblem(input.body.url, deps.allowLocalHttp);
  if (problem) throw new ValidationError(problem, [{ path: ['url'], message: problem }]);
  const id = deps.ids.newId();
  const secret = `${WEBHOOK_SECRET_PREFIX}${deps.randomSecret()}`;
  const stored: StoredWebhookEndpoint = {
    creatorId: input.creatorId,
    id,
    url: input.body.url,
    events: [...input.body.events],
    secret: await deps.cipher.encrypt(secret, webhookSecretContext(input.creatorId, id)),
    createdAt: deps.clock.now().toISOString(),
    disabledAt: null,
    failingSince: null,
  };
  if ((await deps.endpoints.create(stored, WEBHOOK_ENDPOINTS_MAX)) === 'limit') throw new ConflictError(webhookEndpointLimitMessage);
  return { id, url: stored.url, events: [...stored.events], secret };
};

/** Use case: the creator's endpoints, newest first (never their secrets). */
export const listWebhookEndpoints = async (deps: Pick<WebhookEndpointDeps, 'endpoints'>, creatorId: string): Promise<{ items: WebhookEndpointView[] }> => ({
  items: (await deps.endpoints.list(creatorId)).map(toEndpointView),
});

/** Use case: delete an endpoint (nothing more is delivered to it); another creator's is 404. */
export const deleteWebhookEndpoint = async (deps: Pick<WebhookEndpointDeps, 'endpoints'>, input: { creatorId: string; endpointId: string }): Promise<void> => {
  if (!(await deps.endpoints.remove(input.creatorId, input.endpointId))) throw new NotFoundError('No such webhook endpoint.');
};

/** Use case: turn a disabled endpoint back on (its failures forgotten); events from now on are delivered to it. */
export const enableWebhookEndpoint = async (deps: Pick<WebhookEndpointDeps, 'endpoints'>, input: { creatorId: string; endpointId: string }): Promise<WebhookEndpointView> => {
  const enabled = await deps.endpoints.enable(input.creatorId, input.endpointId);
  if (!enabled) throw new NotFoundError('No such webhook endpoint.');
  return toEndpointView(enabled);
};

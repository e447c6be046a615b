import { type IntegrationsView, saveIntegrationsBody } from '#contracts/integrations.ts';
import { saveIntegrations } from '#core/integrations/integrations.ts';
import { saveIntegrationsDeps } from '#functions/composition/deps-integrations.ts';
import { httpRoute } from '#middleware/http-route.ts';

/**
 * PUT /api/integrations: seals new secrets for this creator and replaces the settings. The middleware never logs a
 * request body, and a validation answer names fields, not values, so the secret's text appears in no log line.
 */
export const handler = httpRoute({ route: 'save-integrations', body: saveIntegrationsBody }, ({ auth, body }): Promise<IntegrationsView> =>
  saveIntegrations(saveIntegrationsDeps(), { creatorId: auth.userId, body }),
);

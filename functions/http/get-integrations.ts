import type { IntegrationsView } from '#contracts/integrations.ts';
import { getIntegrations } from '#core/integrations/integrations.ts';
import { integrationRepository } from '#functions/composition/deps-integrations.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/integrations: the creator's settings, all off and empty before the first save; secrets only as "set". */
export const handler = httpRoute({ route: 'get-integrations' }, ({ auth }): Promise<IntegrationsView> =>
  getIntegrations({ integrations: integrationRepository() }, auth.userId),
);

import { integrationTestParams, type IntegrationTestAnswer } from '#contracts/integrations.ts';
import { testIntegration } from '#core/integrations/connections.ts';
import { NotFoundError } from '#core/errors.ts';
import { connectionDeps } from '#functions/composition/deps-integrations.ts';
import { httpRoute } from '#middleware/http-route.ts';

/**
 * POST /api/integrations/{provider}/test: a real check of the saved credentials with the provider (a token and one API
 * call), stored as the provider's status; `{ok, error?}`, or 502 naming the provider when it is down.
 */
export const handler = httpRoute({ route: 'test-integration' }, ({ auth, params }): Promise<IntegrationTestAnswer> => {
  const parsed = integrationTestParams.safeParse(params);
  if (!parsed.success) throw new NotFoundError('No such integration: use zoom, teams or google.');
  return testIntegration(connectionDeps(), { creatorId: auth.userId, provider: parsed.data.provider });
});

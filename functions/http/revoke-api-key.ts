import { revokeApiKey } from '#core/api-keys/api-keys.ts';
import { apiKeyRepository } from '#functions/composition/deps-api-keys.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/api-keys/{keyId}: 204; the key is refused from the next call. */
export const handler = httpRoute({ route: 'revoke-api-key' }, async ({ auth, params }): Promise<Reply> => {
  await revokeApiKey({ apiKeys: apiKeyRepository() }, { creatorId: auth.userId, keyId: params['keyId'] ?? '' });
  return new Reply(204, null);
});

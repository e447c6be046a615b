import { createApiKeyBody } from '#contracts/api-keys.ts';
import { createApiKey } from '#core/api-keys/api-keys.ts';
import { apiKeyDeps } from '#functions/composition/deps-api-keys.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/api-keys: 201 and the key, shown this once (only its hash is kept); 409 past API_KEYS_MAX held keys. */
export const handler = httpRoute({ route: 'create-api-key', body: createApiKeyBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await createApiKey(apiKeyDeps(), { creatorId: auth.userId, body })),
);

import type { ApiKeyList } from '#contracts/api-keys.ts';
import { listApiKeys } from '#core/api-keys/api-keys.ts';
import { apiKeyRepository } from '#functions/composition/deps-api-keys.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/api-keys: the creator's keys, newest first, with their prefix, last four characters and last use. */
export const handler = httpRoute({ route: 'list-api-keys' }, ({ auth }): Promise<ApiKeyList> => listApiKeys({ apiKeys: apiKeyRepository() }, auth.userId));

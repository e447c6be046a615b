import { randomBytes } from 'node:crypto';
import type { ApiKeyDeps, ApiKeyRepository } from '#core/api-keys/ports.ts';
import type { IdempotencyStore } from '#core/public-api/ports.ts';
import { dynamoApiKeys } from '#data/api-keys.ts';
import { dynamoIdempotency } from '#data/api-requests.ts';
import { clock, ids } from '#functions/composition/deps.ts';

/** The API keys' routes and the key authorizer (issue 31, decision 0051). */
let apiKeys: ApiKeyRepository | undefined;
export const apiKeyRepository = (): ApiKeyRepository => (apiKeys ??= dynamoApiKeys());

export const apiKeyDeps = (): ApiKeyDeps => ({ apiKeys: apiKeyRepository(), clock, ids, randomSecret: () => randomBytes(32).toString('base64url') });

/** The public API's Idempotency-Keys (decision 0052). */
let idempotency: IdempotencyStore | undefined;
export const idempotencyStore = (): IdempotencyStore => (idempotency ??= dynamoIdempotency());

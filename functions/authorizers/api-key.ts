import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { authenticateApiKey } from '#core/api-keys/api-keys.ts';
import { apiKeyRepository } from '#functions/composition/deps-api-keys.ts';
import { clock } from '#functions/composition/deps.ts';
import { invocation } from '#middleware/invocation.ts';

/**
 * What the key authorizer hands the /v1 handlers (`requestContext.authorizer.lambda`): the key's creator, id and
 * scopes (space-separated), or nothing for a header that holds no live key.
 */
export type ApiKeyContext = { creatorId: string; keyId: string; scopes: string } | { creatorId?: never; keyId?: never; scopes?: never };

/**
 * The public API's Lambda authorizer (decision 0052; HTTP API payload 2.0, simple responses, identity source the
 * Authorization header, answers cached 60 s per header by API Gateway). It admits every request and tells the handler
 * who the key belongs to, or that it belongs to no one: the handler's middleware then answers 401 with the contract's
 * error body (an authorizer's own refusal would be API Gateway's bare 403). One GetItem per key per cache minute;
 * `lastUsedAt` written at most once a minute.
 */
export const handler = (event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<ApiKeyContext>> =>
  invocation({ job: 'api-key-authorizer' }, async (log) => {
    const authorization = event.headers?.['authorization'] ?? event.identitySource?.[0];
    const grant = await authenticateApiKey({ apiKeys: apiKeyRepository(), clock }, authorization);
    log.info('api key', { known: grant !== undefined, keyId: grant?.keyId, creatorId: grant?.creatorId });
    return { isAuthorized: true, context: grant ? { creatorId: grant.creatorId, keyId: grant.keyId, scopes: grant.scopes.join(' ') } : {} };
  });

import { apiScopes, type ApiScope } from '#contracts/api-keys.ts';
import { admitApiCall, INVALID_API_KEY_MESSAGE } from '#core/api-keys/api-keys.ts';
import { ForbiddenError, UnauthenticatedError } from '#core/errors.ts';
import { apiKeyRepository } from '#functions/composition/deps-api-keys.ts';
import { clock } from '#functions/composition/deps.ts';
import type { KeyAccess } from '#functions/routes.ts';
import { checkPlan, checkStoredAccount, storedPlan, storedProfile } from '#middleware/account.ts';
import type { Auth } from '#middleware/auth.ts';

/** The key authorizer's answer as it reaches the handler (`requestContext.authorizer.lambda`, functions/authorizers/api-key.ts). */
interface KeyGrant {
  creatorId: string;
  keyId: string;
  scopes: ApiScope[];
}

export const grantOf = (context: unknown): KeyGrant | undefined => {
  const c = context as Partial<Record<'creatorId' | 'keyId' | 'scopes', unknown>> | undefined;
  if (typeof c?.creatorId !== 'string' || c.creatorId === '' || typeof c.keyId !== 'string' || typeof c.scopes !== 'string') return undefined;
  return { creatorId: c.creatorId, keyId: c.keyId, scopes: c.scopes.split(' ').filter((s): s is ApiScope => (apiScopes as readonly string[]).includes(s)) };
};

export const missingScopeMessage = (scope: ApiScope) => `This API key does not have the ${scope} scope. Create a key with it on the Developers page.`;

/**
 * A /v1 call (decision 0052), in this order: a key the authorizer knew (else 401); a token from the key's bucket, which
 * also refuses a key revoked since the authorizer's cached answer (401) and an empty bucket (429, Retry-After); the
 * route's scope (403 FORBIDDEN); the creator's stored account (disabled: 403) and plan (`api`, else 403 PLAN_REQUIRED),
 * read per call (remembered a few seconds, as for every route), so a downgrade is felt at once. The caller acts as the
 * key's creator.
 */
export const authorizeApiCall = async (access: KeyAccess, authorizerContext: unknown, authorization: string | undefined): Promise<Auth> => {
  const grant = grantOf(authorizerContext);
  if (!grant) throw new UnauthenticatedError(INVALID_API_KEY_MESSAGE);
  await admitApiCall({ apiKeys: apiKeyRepository(), clock }, authorization);
  if (!grant.scopes.includes(access.key)) throw new ForbiddenError(missingScopeMessage(access.key));
  const role = checkStoredAccount(await storedProfile(grant.creatorId), ['creator']);
  await checkPlan(role, 'api', () => storedPlan(grant.creatorId));
  return { userId: grant.creatorId, username: grant.keyId, role };
};

import { roles, type Role } from '#contracts/common.ts';

export interface Auth {
  /** The Cognito `sub`: the user's id everywhere in the table. */
  userId: string;
  username: string;
  /** The caller's role (its Cognito group); undefined when it belongs to none. */
  role: Role | undefined;
}

/**
 * `cognito:groups` arrives as a JSON array in a raw token, and as a string "[admin creator]" once API Gateway's
 * JWT authorizer has flattened the claims (and the local gateway does the same). Both are read here, once.
 */
export const parseGroups = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') return [];
  return value
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .map((g) => g.replace(/^"|"$/g, ''))
    .filter(Boolean);
};

/**
 * The caller, from the claims of a verified token. Only Cognito **access** tokens identify a caller: API Gateway's
 * JWT authorizer also lets an ID token of the same app client through (its `aud` is the client id), so the token's
 * use is checked here, the same in the cloud as in the local gateway. Anything else is no caller (401).
 */
export const authFromClaims = (claims: Record<string, unknown> | undefined): Auth | undefined => {
  const sub = claims?.['sub'];
  if (typeof sub !== 'string' || sub === '') return undefined;
  if (claims?.['token_use'] !== 'access') return undefined;
  const groups = parseGroups(claims?.['cognito:groups']);
  const role = roles.find((r) => groups.includes(r));
  const username = claims?.['username'] ?? claims?.['cognito:username'] ?? sub;
  return { userId: sub, username: String(username), role };
};

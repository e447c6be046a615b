import { roles, type Role } from '../contracts/common.ts';

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

export const authFromClaims = (claims: Record<string, unknown> | undefined): Auth | undefined => {
  const sub = claims?.['sub'];
  if (typeof sub !== 'string' || sub === '') return undefined;
  const groups = parseGroups(claims?.['cognito:groups']);
  const role = roles.find((r) => groups.includes(r));
  const username = claims?.['username'] ?? claims?.['cognito:username'] ?? sub;
  return { userId: sub, username: String(username), role };
};

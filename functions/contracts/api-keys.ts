import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * API keys (issue 31 point 1; docs/api.md "Public API (Pro) and signed webhooks"): a Pro creator's keys for the
 * public API at /v1. A key is shown once (`cp_` then random characters), stored only as a hash; its `prefix` (the
 * first characters, `cp_` included) and `last4` are kept for display.
 */
export const apiScopes = ['courses:read', 'enrollments:write', 'learners:read', 'sales:read'] as const;
export type ApiScope = (typeof apiScopes)[number];
/** What each scope lets a key do, in the words of the Developers page. */
export const apiScopeLabels: Record<ApiScope, string> = {
  'courses:read': 'Read courses',
  'enrollments:write': 'Enrol and remove learners',
  'learners:read': 'Read learners',
  'sales:read': 'Read sales',
};
export const API_KEY_PREFIX = 'cp_';
export const API_KEY_NAME_MAX = 100;
/** Keys one creator may hold at once (revoked keys do not count). */
export const API_KEYS_MAX = 20;

/** POST /api/api-keys. */
export const createApiKeyBody = z.strictObject({
  name: z.string().trim().min(1, 'Name the key.').max(API_KEY_NAME_MAX, `A key's name is at most ${API_KEY_NAME_MAX} characters.`),
  scopes: z
    .array(z.enum(apiScopes))
    .min(1, 'Choose at least one scope.')
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope once.'),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;

/** A key as listed (never the key itself). */
export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(apiScopes)),
  prefix: z.string(),
  last4: z.string(),
  createdAt: isoDate,
  lastUsedAt: isoDate.nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

/** 201 of POST /api/api-keys: `key` is shown this once. */
export const createdApiKey = z.object({ id: z.string(), name: z.string(), scopes: z.array(z.enum(apiScopes)), key: z.string().startsWith(API_KEY_PREFIX), createdAt: isoDate });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** GET /api/api-keys. */
export const apiKeyList = z.object({ items: z.array(apiKeyView) });
export type ApiKeyList = z.infer<typeof apiKeyList>;

/** Each key's rate limit on /v1 (a token bucket per key): `rate` requests a second steady, bursts of up to `burst`. */
export const API_RATE_LIMIT = { rate: 10, burst: 20 } as const;

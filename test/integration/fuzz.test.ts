import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '#contracts/common.ts';
import { isKeyAccess, routes } from '#functions/routes.ts';
import { accountWithRole, outputs } from './support.ts';

/**
 * Bad input never gives a 5xx: every route with a body gets random JSON (and random non-JSON) from an admitted
 * caller, and must answer 2xx or 4xx. Derived from the route table, so new routes are fuzzed as they appear.
 */
const tokens: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  for (const role of ['admin', 'creator', 'leader', 'learner'] as const) tokens[role] = (await accountWithRole(role, `fuzz-${role}`)).token;
});

const send = async (method: string, path: string, token: string | undefined, body: string, contentType = 'application/json') => {
  const res = await fetch(`${outputs().ApiUrl}${path}`, {
    method,
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  await res.arrayBuffer();
  return res.status;
};

describe('fuzzing every route body', () => {
  for (const route of routes.filter((r) => r.method !== 'GET')) {
    const role = route.access === 'public' || isKeyAccess(route.access) ? undefined : route.access[0];
    const path = route.path.replace(/\{[^}]+\}/g, 'fuzz-id');
    it(`${route.method} ${route.path} answers random JSON with 2xx/4xx only`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
          const status = await send(route.method, path, role && tokens[role], JSON.stringify(value));
          expect(status).toBeLessThan(500);
        }),
        { numRuns: 40 },
      );
    });
    it(`${route.method} ${route.path} answers broken bodies with 4xx`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 200 }), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'), async (text, type) => {
          const status = await send(route.method, path, role && tokens[role], text, type);
          expect(status).toBeLessThan(500);
        }),
        { numRuns: 25 },
      );
    });
  }
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '#contracts/common.ts';
import { routes } from '#functions/routes.ts';
import { accountWithRole, api } from './support.ts';

/**
 * Every route of functions/routes.ts x every kind of caller, derived from the route table: a new route is covered
 * the moment it is added. Anonymous -> 401 on protected routes; a role the route does not admit -> 403; an admitted
 * role gets past authorization (its answer may still be 400/404 for the placeholder ids and empty bodies used here).
 */
type Caller = 'anonymous' | Role | 'other creator';
const callers: Caller[] = ['anonymous', 'admin', 'creator', 'other creator', 'leader', 'learner'];

const tokens: Partial<Record<Caller, string>> = {};

beforeAll(async () => {
  for (const role of ['admin', 'creator', 'leader', 'learner'] as const) tokens[role] = (await accountWithRole(role)).token;
  tokens['other creator'] = (await accountWithRole('creator', 'other-creator')).token;
});

const concretePath = (path: string) => path.replace(/\{[^}]+\}/g, 'placeholder-id');

const roleOf = (caller: Caller): Role | undefined =>
  caller === 'other creator' ? 'creator' : caller === 'anonymous' ? undefined : caller;

describe('authorization matrix', () => {
  for (const route of routes) {
    for (const caller of callers) {
      const role = roleOf(caller);
      const expected =
        route.access === 'public' ? 'allowed' : caller === 'anonymous' ? 401 : role && route.access.includes(role) ? 'allowed' : 403;
      it(`${route.method} ${route.path} as ${caller}: ${expected}`, async () => {
        const res = await api(route.method, concretePath(route.path), {
          ...(tokens[caller] ? { token: tokens[caller] } : {}),
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }),
        });
        if (expected === 'allowed') {
          expect([401, 403]).not.toContain(res.status);
          expect(res.status).toBeLessThan(500);
        } else {
          expect(res.status).toBe(expected);
          expect(res.body.error.code).toBe(expected === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        }
      });
    }
  }
});

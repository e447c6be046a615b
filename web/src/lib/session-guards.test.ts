import type { LoaderFunctionArgs } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from './session.ts';

vi.mock('./session.ts', () => ({ getProfile: vi.fn() }));
const { getProfile } = await import('./session.ts');
const { decideAccess, requireRole, dashboardRedirect, homeRedirect, guestOnly } = await import('./session-guards.ts');

const profile = (role: Me['role']): Me => ({ id: 'u1', email: `${role}@example.com`, role, createdAt: '2025-01-01T00:00:00.000Z' });
const args = (path: string): LoaderFunctionArgs => {
  const url = new URL(`http://localhost${path}`);
  return { request: new Request(url), url, params: {}, pattern: url.pathname, context: undefined };
};

function location(response: Response | null): string | null {
  return response?.headers.get('Location') ?? null;
}

beforeEach(() => vi.mocked(getProfile).mockReset());

describe('decideAccess', () => {
  it('lets a user with an allowed role through', () => {
    expect(decideAccess(profile('admin'), '/dashboard/admin', { allowed: ['admin'] })).toEqual({ allow: true });
  });

  it('sends a user whose role is not allowed to their own dashboard', () => {
    expect(decideAccess(profile('learner'), '/dashboard/admin', { allowed: ['admin'] })).toEqual({
      allow: false,
      redirectTo: '/dashboard/learner',
    });
  });

  it('sends an anonymous visitor to /auth/login, remembering where they wanted to go', () => {
    expect(decideAccess(null, '/dashboard/creator/crm?page=2', { allowed: ['creator'] })).toEqual({
      allow: false,
      redirectTo: '/auth/login?redirectTo=%2Fdashboard%2Fcreator%2Fcrm%3Fpage%3D2',
    });
  });

  it('uses the redirect it was given for anonymous visitors', () => {
    expect(decideAccess(null, '/x', { redirectTo: '/auth/signup' })).toEqual({ allow: false, redirectTo: '/auth/signup?redirectTo=%2Fx' });
  });

  it('lets any signed-in role through when no roles are listed', () => {
    for (const role of ['admin', 'creator', 'leader', 'learner'] as const) {
      expect(decideAccess(profile(role), '/checkout/success')).toEqual({ allow: true });
    }
  });
});

describe('route guards (loaders)', () => {
  it('requireRole lets the allowed role load the page', async () => {
    vi.mocked(getProfile).mockResolvedValue(profile('creator'));
    expect(await requireRole(['creator'])(args('/dashboard/creator'))).toBeNull();
  });

  it('requireRole bounces a leader from the creator area to the leader dashboard', async () => {
    vi.mocked(getProfile).mockResolvedValue(profile('leader'));
    expect(location(await requireRole(['creator'])(args('/dashboard/creator/crm')))).toBe('/dashboard/leader');
  });

  it('requireRole sends an anonymous visitor to sign in with the deep link as redirectTo', async () => {
    vi.mocked(getProfile).mockResolvedValue(null);
    expect(location(await requireRole(['admin'])(args('/dashboard/admin/emails')))).toBe(
      '/auth/login?redirectTo=%2Fdashboard%2Fadmin%2Femails',
    );
  });

  it.each([
    ['admin', '/dashboard/admin'],
    ['creator', '/dashboard/creator'],
    ['leader', '/dashboard/leader'],
    ['learner', '/dashboard/learner'],
  ] as const)('/dashboard and / send a signed-in %s to %s', async (role, path) => {
    vi.mocked(getProfile).mockResolvedValue(profile(role));
    expect(location(await dashboardRedirect(args('/dashboard')))).toBe(path);
    expect(location(await homeRedirect())).toBe(path);
  });

  it('/ shows the marketing page to an anonymous visitor instead of redirecting', async () => {
    vi.mocked(getProfile).mockResolvedValue(null);
    expect(await homeRedirect()).toBeNull();
  });

  it('/dashboard sends an anonymous visitor to sign in and back to /dashboard', async () => {
    vi.mocked(getProfile).mockResolvedValue(null);
    expect(location(await dashboardRedirect(args('/dashboard')))).toBe('/auth/login?redirectTo=%2Fdashboard');
  });

  it('guestOnly sends a signed-in visitor of the auth screens to /', async () => {
    vi.mocked(getProfile).mockResolvedValue(profile('learner'));
    expect(location(await guestOnly())).toBe('/');
    vi.mocked(getProfile).mockResolvedValue(null);
    expect(await guestOnly()).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const amplifyLoaded = vi.fn();
const fetchAuthSession = vi.fn();
vi.mock('./amplify.ts', () => {
  amplifyLoaded();
  return { configureAmplify: vi.fn(), fetchAuthSession, signOut: vi.fn(), Hub: { listen: vi.fn() } };
});

// auth.ts keeps Amplify's loading in module state: each test gets a fresh module.
const freshAuth = async () => {
  vi.resetModules();
  const auth = await import('./auth.ts');
  auth.configureAuth({ Region: 'eu-west-2', UserPoolId: 'eu-west-2_pool', UserPoolClientId: 'client' });
  return auth;
};

// The key Amplify's default token store writes for the signed-in user.
const lastAuthUser = 'CognitoIdentityServiceProvider.client.LastAuthUser';

beforeEach(() => {
  localStorage.clear();
  amplifyLoaded.mockClear();
});
afterEach(() => localStorage.clear());

describe('the session without Amplify loaded', () => {
  it('is signed out when no session is stored, and Amplify is never loaded to say so', async () => {
    const { isSignedIn, getAccessToken, hasStoredSession } = await freshAuth();
    localStorage.setItem('unrelated', 'value');

    expect(hasStoredSession()).toBe(false);
    expect(await isSignedIn()).toBe(false);
    expect(await getAccessToken()).toBeUndefined();
    expect(amplifyLoaded).not.toHaveBeenCalled();
  });

  it('asks Amplify once a session is stored', async () => {
    const { getAccessToken, hasStoredSession } = await freshAuth();
    localStorage.setItem(lastAuthUser, 'creator@example.com');
    fetchAuthSession.mockResolvedValue({ tokens: { accessToken: { toString: () => 'access-token' } } });

    expect(hasStoredSession()).toBe(true);
    expect(await getAccessToken()).toBe('access-token');
    expect(amplifyLoaded).toHaveBeenCalled();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasStoredSession } from './stored-session.ts';

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
  fetchAuthSession.mockReset();
});
afterEach(() => localStorage.clear());

describe('the session without Amplify loaded', () => {
  it('is signed out when no session is stored, and Amplify is never loaded to say so', async () => {
    const { isSignedIn, getAccessToken } = await freshAuth();
    localStorage.setItem('unrelated', 'value');

    expect(hasStoredSession()).toBe(false);
    expect(await isSignedIn()).toBe(false);
    expect(await getAccessToken()).toBeUndefined();
    expect(amplifyLoaded).not.toHaveBeenCalled();
  });

  it('asks Amplify once a session is stored', async () => {
    const { getAccessToken } = await freshAuth();
    localStorage.setItem(lastAuthUser, 'creator@example.com');
    fetchAuthSession.mockResolvedValue({ tokens: { accessToken: { toString: () => 'access-token' } } });

    expect(hasStoredSession()).toBe(true);
    expect(await getAccessToken()).toBe('access-token');
    expect(amplifyLoaded).toHaveBeenCalled();
  });

  it('uses a stored access token that is still fresh without loading Amplify', async () => {
    const { getAccessToken } = await freshAuth();
    const token = jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
    storeSession('user-1', token);

    expect(await getAccessToken()).toBe(token);
    expect(fetchAuthSession).not.toHaveBeenCalled();
  });

  it('lets Amplify refresh a stored access token that expires within the minute', async () => {
    const { getAccessToken } = await freshAuth();
    storeSession('user-1', jwt({ exp: Math.floor(Date.now() / 1000) + 30 }));
    fetchAuthSession.mockResolvedValue({ tokens: { accessToken: { toString: () => 'refreshed-token' } } });

    expect(await getAccessToken()).toBe('refreshed-token');
    expect(fetchAuthSession).toHaveBeenCalled();
  });
});

/** A token as Cognito shapes it (header.payload.signature, base64url); the signature is never checked here. */
function jwt(payload: Record<string, unknown>): string {
  const base64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${base64url({ alg: 'RS256' })}.${base64url(payload)}.signature`;
}

function storeSession(user: string, accessToken: string): void {
  localStorage.setItem(lastAuthUser, user);
  localStorage.setItem(`CognitoIdentityServiceProvider.client.${user}.accessToken`, accessToken);
  localStorage.setItem(`CognitoIdentityServiceProvider.client.${user}.clockDrift`, '0');
}

import type * as Amplify from './amplify.ts';
import type { WebConfig } from './config.ts';
import { hasStoredSession, storedAccessToken } from './stored-session.ts';

/**
 * Amplify is used for Cognito auth only: the session here, the sign-in, sign-up and reset flows in the auth feature
 * (features/auth/api/). API calls go through api-client.ts with the access token from here.
 *
 * Amplify is loaded on first use (`loadAuth`), not with the page: a visitor with no session stored (the marketing
 * page's usual visitor) never needs it, and it is a sixth of the first load's script. Whether a session is stored
 * is read from Amplify's own keys in localStorage, where its default token store keeps them.
 */

type AmplifyModule = typeof Amplify;
export type AuthEvent = 'signedIn' | 'signedOut' | 'tokenRefresh' | 'tokenRefresh_failure';

let config: WebConfig | undefined;
let amplify: Promise<AmplifyModule> | undefined;
const listeners = new Set<(event: AuthEvent) => void>();

/** Remembers the pool for Amplify, configured with it when it loads (main.tsx calls this before the first guard). */
export function configureAuth(webConfig: WebConfig): void {
  config = webConfig;
}

/** Amplify, loaded and configured once; the auth feature awaits it before a sign-in, sign-up or reset call. */
export function loadAuth(): Promise<AmplifyModule> {
  amplify ??= import('./amplify.ts').then((module) => {
    if (!config) throw new Error('auth: configureAuth(config) must run before Amplify is used');
    module.configureAmplify(config);
    module.Hub.listen('auth', ({ payload }) => {
      const event = payload.event;
      if (event === 'signedIn' || event === 'signedOut' || event === 'tokenRefresh' || event === 'tokenRefresh_failure') {
        for (const listener of listeners) listener(event);
      }
    });
    return module;
  });
  return amplify;
}

export async function signOutUser(): Promise<void> {
  const { signOut } = await loadAuth();
  await signOut();
}

/** The current access token (refreshed by Amplify when it has expired), or undefined when nobody is signed in. */
export async function getAccessToken(): Promise<string | undefined> {
  if (!amplify) {
    // Until something needed Amplify (a sign-in, a sign-out, a token to refresh), the stored token serves as is.
    const stored = config ? storedAccessToken(config.UserPoolClientId) : undefined;
    if (stored) return stored;
    if (!hasStoredSession()) return undefined;
  }
  try {
    const { fetchAuthSession } = await loadAuth();
    const session = await fetchAuthSession();
    return session.tokens?.accessToken.toString();
  } catch {
    // A refresh that fails (revoked refresh token, pool reset) means "signed out", not a crash.
    return undefined;
  }
}

export async function isSignedIn(): Promise<boolean> {
  return (await getAccessToken()) !== undefined;
}

/**
 * Amplify's auth events (sign-in, sign-out, refresh) from the moment Amplify loads: none can happen before, since
 * only Amplify signs in or out. Returns the unsubscribe function.
 */
export function onAuthEvent(listener: (event: AuthEvent) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

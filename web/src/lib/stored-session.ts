/**
 * What Amplify's default token store keeps in localStorage, read without loading Amplify: whether a session is
 * stored, and its access token while it is fresh. Dependency-free: the page head's session hint
 * (app/session-hint.ts) shares its constants at build time.
 *
 * Keys: `CognitoIdentityServiceProvider.<client id>.LastAuthUser` names the signed-in user;
 * `CognitoIdentityServiceProvider.<client id>.<user>.accessToken` and `.clockDrift` (ms) are theirs.
 */
export const SESSION_KEY_PREFIX = 'CognitoIdentityServiceProvider.';
export const SESSION_KEY_SUFFIX = '.LastAuthUser';

/** A stored access token is used as is while it has more than this to live; then Amplify refreshes it. */
export const TOKEN_MARGIN_MS = 60_000;

/**
 * Whether Amplify has a session stored in this browser (possibly expired: only Amplify can tell). Without one
 * nobody is signed in, and Amplify need not load to say so.
 */
export function hasStoredSession(storage: Storage = window.localStorage): boolean {
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i) ?? '';
      if (key.startsWith(SESSION_KEY_PREFIX) && key.endsWith(SESSION_KEY_SUFFIX)) return true;
    }
  } catch {
    // Storage refused (privacy settings): Amplify cannot keep a session there either.
  }
  return false;
}

/** The `exp` (epoch seconds) of a JWT, or undefined when it is not one. Nothing is verified: the API does that. */
export function tokenExpiry(token: string): number | undefined {
  try {
    const payload = (token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const exp = (JSON.parse(atob(payload.padEnd(Math.ceil(payload.length / 4) * 4, '='))) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The access token Amplify stored for the app client's last signed-in user, while it has more than TOKEN_MARGIN_MS
 * to live (by the clock drift Amplify measured at sign-in). The first requests of a signed-in page go out with it
 * without waiting for Amplify to load and run (~250 ms of main thread on a slow phone). No token, an expiring one or
 * anything unreadable: undefined, and Amplify decides (it refreshes with the refresh token or ends the session).
 */
export function storedAccessToken(clientId: string, storage: Storage = window.localStorage, now: number = Date.now()): string | undefined {
  try {
    const base = `${SESSION_KEY_PREFIX}${clientId}`;
    const user = storage.getItem(`${base}${SESSION_KEY_SUFFIX}`);
    if (!user) return undefined;
    const token = storage.getItem(`${base}.${user}.accessToken`);
    const drift = Number.parseInt(storage.getItem(`${base}.${user}.clockDrift`) ?? '0', 10) || 0;
    const exp = token ? tokenExpiry(token) : undefined;
    return token && exp !== undefined && exp * 1000 - (now + drift) > TOKEN_MARGIN_MS ? token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * With a fresh access token stored, the page head's session hint sends GET /api/me at once and leaves the response's
 * promise on `window[EARLY_PROFILE_GLOBAL]`; the first profile load adopts it (`takeEarlyProfile`), so the request
 * does not wait for the scripts to load and run.
 */
export const EARLY_PROFILE_GLOBAL = '__earlyProfile';
export const EARLY_PROFILE_PATH = '/api/me';

/** The hint's early GET /api/me, once: a second profile load (a refetch) asks the API again. */
export function takeEarlyProfile(): Promise<Response> | undefined {
  const holder = window as unknown as Record<string, Promise<Response> | undefined>;
  const early = holder[EARLY_PROFILE_GLOBAL];
  delete holder[EARLY_PROFILE_GLOBAL];
  return early;
}

import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { MeResponse } from '@contracts/me.ts';
import { ApiError } from './api-error.ts';
import { isSignedIn, onAuthEvent, signOutUser } from './auth.ts';
import { takeEarlyProfile } from './stored-session.ts';

/** The signed-in user's profile, as GET /api/me returns it. */
export type Me = MeResponse;

/**
 * The session's profile lives in the query cache under this key: `null` when nobody is signed in. Amplify's auth
 * events (connectSession) keep it in step with the Cognito session, so screens and guards never disagree.
 */
export const profileQueryKey = ['session', 'profile'] as const;

async function loadProfile(signal?: AbortSignal): Promise<Me | null> {
  // The page head may have sent GET /api/me already (a fresh token was stored): the first load adopts that answer.
  const early = takeEarlyProfile();
  if (!(await isSignedIn())) return null;
  // Lazy: GET /api/me's contract brings the full zod, which stays out of the initial chunk.
  const { fetchMe } = await import('./session-me.ts');
  try {
    return await fetchMe(signal, early);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.code === 'ACCOUNT_DISABLED')) {
      // The API no longer accepts these tokens (pool reset, revoked), or an admin disabled the account (it cannot sign
      // in again either, and the sign-in form says why): the honest state is "signed out".
      await signOutUser().catch(() => undefined);
      return null;
    }
    // SPEC.md section 8: a profile fetch error is logged; the caller shows its error state.
    console.error('The profile could not be loaded', error);
    throw error;
  }
}

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: profileQueryKey,
    queryFn: ({ signal }) => loadProfile(signal),
    // A role does not change during a session; sign-in and sign-out replace the entry anyway.
    staleTime: 5 * 60_000,
  });

let client: QueryClient | undefined;

function sessionClient(): QueryClient {
  if (!client) throw new Error('session: connectSession(queryClient) must run before the profile is read');
  return client;
}

/** Everything cached except the profile entry itself (its observers must survive a change of user). */
function dropUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== profileQueryKey[0] });
}

/**
 * Binds the session to the app's query client and lets Amplify's Hub events drive the profile: a sign-in loads
 * it afresh, a sign-out (or a refresh token that no longer works) clears it and every other cached answer, so
 * nothing of one user survives into the next. Returns the unsubscribe function.
 */
export function connectSession(queryClient: QueryClient): () => void {
  client = queryClient;
  const unsubscribe = onAuthEvent((event) => {
    if (event === 'signedIn') {
      dropUserData(queryClient);
      void queryClient.invalidateQueries({ queryKey: profileQueryKey });
    } else if (event === 'signedOut' || event === 'tokenRefresh_failure') {
      dropUserData(queryClient);
      queryClient.setQueryData(profileQueryKey, null);
    }
  });
  return () => {
    unsubscribe();
    if (client === queryClient) client = undefined;
  };
}

/** The profile (GET /api/me, cached), or null when nobody is signed in. Rejects when the API fails. */
export function getProfile(): Promise<Me | null> {
  return sessionClient().fetchQuery(profileQueryOptions());
}


/** Sign Out: ends the Cognito session, then forgets the profile and every cached answer. */
export async function signOutAndForget(): Promise<void> {
  await signOutUser();
  const queryClient = sessionClient();
  dropUserData(queryClient);
  queryClient.setQueryData(profileQueryKey, null);
}

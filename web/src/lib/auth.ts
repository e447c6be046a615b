import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import type { WebConfig } from './config.ts';

/**
 * Amplify is used for Cognito auth only, through this module and auth-sign-in.ts; API calls go through
 * api-client.ts with the access token from here.
 */
export function configureAuth(config: WebConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.UserPoolId,
        userPoolClientId: config.UserPoolClientId,
        // Only the local cloud sets it (cognito-local); in AWS the endpoint follows from the pool's region.
        ...(config.CognitoEndpoint ? { userPoolEndpoint: config.CognitoEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
}

export async function signOutUser(): Promise<void> {
  await signOut();
}

/** The current access token (refreshed by Amplify when it has expired), or undefined when nobody is signed in. */
export async function getAccessToken(): Promise<string | undefined> {
  try {
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

export type AuthEvent = 'signedIn' | 'signedOut' | 'tokenRefresh' | 'tokenRefresh_failure';

/** Subscribes to Amplify's auth Hub channel; returns the unsubscribe function. */
export function onAuthEvent(listener: (event: AuthEvent) => void): () => void {
  return Hub.listen('auth', ({ payload }) => {
    const event = payload.event;
    if (event === 'signedIn' || event === 'signedOut' || event === 'tokenRefresh' || event === 'tokenRefresh_failure') {
      listener(event);
    }
  });
}

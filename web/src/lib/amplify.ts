import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import type { WebConfig } from './config.ts';

// Amplify's session and events, apart from lib/auth.ts: only lib/auth.ts `loadAuth` imports this module, lazily,
// so a visitor without a stored session never loads or runs Amplify.

export { fetchAuthSession, Hub, signOut };

export function configureAmplify(config: WebConfig): void {
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

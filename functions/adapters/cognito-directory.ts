import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { awsClientOptions, clientPolicies } from '#adapters/client-policy.ts';
import { traced } from '#adapters/tracer.ts';
import { config, required } from '#functions/config.ts';
import { ConflictError } from '#core/errors.ts';
import type { Directory } from '#core/ports.ts';

let client: CognitoIdentityProviderClient | undefined;

/** The Cognito client, made once, with its timeouts and retries (adapters/client-policy.ts). */
export const cognitoClient = (): CognitoIdentityProviderClient => {
  if (!client) {
    const { AWS_REGION, COGNITO_ENDPOINT } = config();
    client = traced(
      new CognitoIdentityProviderClient({
        region: AWS_REGION,
        ...awsClientOptions(clientPolicies.cognito),
        ...(COGNITO_ENDPOINT ? { endpoint: COGNITO_ENDPOINT } : {}),
      }),
    );
  }
  return client;
};

/**
 * Cognito as the Directory port. The pool signs in by email; users get our invitations, not Cognito's.
 * The pool's own triggers cannot be given USER_POOL_ID (the pool names them: a cycle), so they pass the pool id
 * from their event; everything else reads it from config.
 */
/**
 * An invitation made before but never finished (the caller found no profile for the email): the sign-in account
 * exists, still waiting for its first sign-in with a temporary password nobody received (the mail or the profile
 * write failed). It is taken over with the new temporary password, so the invitation about to go works. An account
 * already in use (its password set by its owner) is never taken over.
 */
const adoptUnfinished = async (poolId: string, email: string, temporaryPassword: string): Promise<{ id: string; username: string } | undefined> => {
  const found = await cognitoClient().send(new AdminGetUserCommand({ UserPoolId: poolId, Username: email }));
  const sub = found.UserAttributes?.find((a) => a.Name === 'sub')?.Value;
  if (found.UserStatus !== 'FORCE_CHANGE_PASSWORD' || !sub || !found.Username) return undefined;
  await cognitoClient().send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: found.Username, Password: temporaryPassword, Permanent: false }));
  return { id: sub, username: found.Username };
};

export const cognitoDirectory = (userPoolId?: string): Directory => ({
  async createAccount({ email, password, temporaryPassword }) {
    const poolId = userPoolId ?? required('USER_POOL_ID');
    try {
      const { User } = await cognitoClient().send(
        new AdminCreateUserCommand({
          UserPoolId: poolId,
          Username: email,
          MessageAction: 'SUPPRESS',
          ...(temporaryPassword ? { TemporaryPassword: temporaryPassword } : {}),
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
      const sub = User?.Attributes?.find((a) => a.Name === 'sub')?.Value;
      const username = User?.Username ?? email;
      if (!sub) throw new Error('AdminCreateUser returned no sub');
      if (password) {
        await cognitoClient().send(
          new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: username, Password: password, Permanent: true }),
        );
      }
      return { id: sub, username };
    } catch (error) {
      if (!(error instanceof UsernameExistsException)) throw error;
      const adopted = temporaryPassword ? await adoptUnfinished(poolId, email, temporaryPassword) : undefined;
      if (adopted) return adopted;
      throw new ConflictError(`An account with ${email} already exists.`);
    }
  },

  async addToGroup(username, role) {
    await cognitoClient().send(
      new AdminAddUserToGroupCommand({ UserPoolId: userPoolId ?? required('USER_POOL_ID'), Username: username, GroupName: role }),
    );
  },

  // Cognito takes a local user's sub as its Username in the Admin* calls. Disabling stops new sign-ins and refreshes;
  // the global sign-out revokes the refresh tokens already handed out (access tokens end within the hour: docs/api.md).
  async setSignInEnabled(userId, enabled) {
    const target = { UserPoolId: userPoolId ?? required('USER_POOL_ID'), Username: userId };
    if (enabled) {
      await cognitoClient().send(new AdminEnableUserCommand(target));
      return;
    }
    await cognitoClient().send(new AdminDisableUserCommand(target));
    await cognitoClient().send(new AdminUserGlobalSignOutCommand(target));
  },

  async emailVerified(userId) {
    try {
      const found = await cognitoClient().send(new AdminGetUserCommand({ UserPoolId: userPoolId ?? required('USER_POOL_ID'), Username: userId }));
      return found.UserAttributes?.find((a) => a.Name === 'email_verified')?.Value === 'true';
    } catch (error) {
      if ((error as { name?: string }).name === 'UserNotFoundException') return false;
      throw error;
    }
  },

  // Into the new group first: a failure between the calls leaves the account in both, which a retry completes.
  async changeGroup(userId, from, to) {
    const target = { UserPoolId: userPoolId ?? required('USER_POOL_ID'), Username: userId };
    await cognitoClient().send(new AdminAddUserToGroupCommand({ ...target, GroupName: to }));
    await cognitoClient().send(new AdminRemoveUserFromGroupCommand({ ...target, GroupName: from }));
    await cognitoClient().send(new AdminUserGlobalSignOutCommand(target));
  },
});

/**
 * The account deletion's last word with Cognito (issue 37 point 2): the sign-in account deleted, so sign-in fails
 * for good. One already gone (a rerun of the deletion) is fine.
 */
export const deleteSignInAccount = async (userId: string, userPoolId?: string): Promise<void> => {
  try {
    await cognitoClient().send(new AdminDeleteUserCommand({ UserPoolId: userPoolId ?? required('USER_POOL_ID'), Username: userId }));
  } catch (error) {
    if ((error as { name?: string }).name !== 'UserNotFoundException') throw error;
  }
};

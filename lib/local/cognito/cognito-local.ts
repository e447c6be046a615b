import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListGroupsCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { roles } from '#contracts/common.ts';
import { passwordPolicy } from '#contracts/auth.ts';
import { triggers } from '#functions/routes.ts';
import { answers, spawnChild, waitUntilReady, type Child } from '../processes.ts';

export const POOL_NAME = 'course-platform';
export const CLIENT_NAME = 'web';

/**
 * Starts cognito-local with its data under `dir` (it always uses `<cwd>/.cognito`). Its config points the
 * triggers at our Lambda bridge and makes tokens carry the shim's URL as issuer, since clients only ever
 * see the shim.
 */
export const startCognitoLocal = async (opts: {
  port: number;
  dir: string;
  lambdaEndpoint: string;
  issuerDomain: string;
  log: (l: string) => void;
}): Promise<Child> => {
  mkdirSync(join(opts.dir, '.cognito'), { recursive: true });
  const config = {
    LambdaClient: {
      endpoint: opts.lambdaEndpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    },
    TriggerFunctions: {
      PreSignUp: triggers.preSignUp.name,
      PostConfirmation: triggers.postConfirmation.name,
    },
    TokenConfig: { IssuerDomain: opts.issuerDomain },
    UserPoolDefaults: { UsernameAttributes: ['email'] },
  };
  writeFileSync(join(opts.dir, '.cognito', 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const pkg = dirname(createRequire(import.meta.url).resolve('cognito-local/package.json'));
  const child = spawnChild('cognito', process.execPath, [join(pkg, 'lib', 'bin', 'start.js')], {
    cwd: opts.dir,
    // CODE fixes every confirmation code (sign-up, forgot password) so tests and humans can use it.
    env: { ...process.env, PORT: String(opts.port), HOST: '127.0.0.1', CODE: '123456', NO_COLOR: '1', NODE_NO_WARNINGS: '1' },
    log: opts.log,
  });
  try {
    await waitUntilReady('cognito-local', () => answers(`http://127.0.0.1:${opts.port}/health`), {
      child,
      timeoutMs: 30_000,
    });
  } catch (error) {
    await child.stop();
    throw error;
  }
  return child;
};

export const cognitoClient = (endpoint: string, region: string): CognitoIdentityProviderClient =>
  new CognitoIdentityProviderClient({
    endpoint,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

/**
 * The user pool as the cloud's auth stack declares it (email sign-in, the password policy, the four
 * groups) and its web client (USER_PASSWORD_AUTH + refresh), created only when missing.
 */
export const ensureUserPool = async (
  endpoint: string,
  region: string,
): Promise<{ userPoolId: string; clientId: string }> => {
  const client = cognitoClient(endpoint, region);
  try {
    const pools = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    let userPoolId = pools.UserPools?.find((p) => p.Name === POOL_NAME)?.Id;
    if (!userPoolId) {
      const created = await client.send(
        new CreateUserPoolCommand({
          PoolName: POOL_NAME,
          UsernameAttributes: ['email'],
          AutoVerifiedAttributes: ['email'],
          Policies: {
            // The one policy (functions/contracts/auth.ts), as the CDK pool has it; the shim enforces it.
            PasswordPolicy: {
              MinimumLength: passwordPolicy.minLength,
              RequireUppercase: passwordPolicy.requireUppercase,
              RequireLowercase: passwordPolicy.requireLowercase,
              RequireNumbers: passwordPolicy.requireDigits,
              RequireSymbols: passwordPolicy.requireSymbols,
            },
          },
        }),
      );
      userPoolId = created.UserPool!.Id!;
    }

    const clients = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
    let clientId = clients.UserPoolClients?.find((c) => c.ClientName === CLIENT_NAME)?.ClientId;
    if (!clientId) {
      const created = await client.send(
        new CreateUserPoolClientCommand({
          UserPoolId: userPoolId,
          ClientName: CLIENT_NAME,
          GenerateSecret: false,
          ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        }),
      );
      clientId = created.UserPoolClient!.ClientId!;
    }

    const groups = await client.send(new ListGroupsCommand({ UserPoolId: userPoolId }));
    const existing = new Set(groups.Groups?.map((g) => g.GroupName));
    for (const role of roles) {
      if (!existing.has(role)) await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: role }));
    }
    return { userPoolId, clientId };
  } finally {
    client.destroy();
  }
};

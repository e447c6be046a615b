import { Annotations, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  type CfnUserPool,
  type CfnUserPoolClient,
  FeaturePlan,
  Mfa,
  UserPool,
  type UserPoolClient,
  UserPoolEmail,
  UserPoolGroup,
  UserPoolOperation,
} from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { passwordPolicy } from '#contracts/auth.ts';
import { allRoles, triggers } from '#functions/routes.ts';
import { AppFunction, senderAddress } from './app-function.ts';

export interface UserDirectoryProps {
  /** The table the post confirmation trigger writes the profile and counters to. */
  readonly table: ITable;
  /**
   * The web app's origin: with it, the CustomMessage trigger turns the reset email into a link to /reset-password.
   * Without it (a first deployment without a custom domain), Cognito sends its default code-only message.
   */
  readonly appOrigin?: string;
  /** `Name <address>` or an address: the pool sends through SES from the address's verified domain identity. */
  readonly fromEmail?: string;
}

/**
 * The Cognito user pool: email sign-in, self sign-up (pre sign-up admits creators only and confirms them),
 * the password policy of the spec, the four role groups, and an app client for the SPA without a secret.
 */
export class UserDirectory extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly preSignUp: AppFunction;
  readonly postConfirmation: AppFunction;
  readonly customMessage?: AppFunction;

  constructor(scope: Construct, id: string, props: UserDirectoryProps) {
    super(scope, id);

    this.userPool = new UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      // The one policy (functions/contracts/auth.ts): the local shim and the forms enforce the same.
      passwordPolicy: { ...passwordPolicy, tempPasswordValidity: Duration.days(7) },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      mfa: Mfa.OFF,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      ...(props.fromEmail ? { email: sesEmail(this, props.fromEmail) } : {}),
    });
    (this.userPool.node.defaultChild as CfnUserPool).overrideLogicalId('UserPool');

    // The pool's own triggers get no USER_POOL_ID (the pool depends on them): they read event.userPoolId.
    const platform = { table: props.table, userPool: { arn: this.userPool.userPoolArn } };
    this.preSignUp = new AppFunction(this, 'PreSignUp', {
      name: triggers.preSignUp.name,
      handler: triggers.preSignUp.handler,
      platform,
    });
    this.postConfirmation = new AppFunction(this, 'PostConfirmation', {
      name: triggers.postConfirmation.name,
      handler: triggers.postConfirmation.handler,
      table: 'read-write',
      uses: ['directory:add-to-group'],
      platform,
    });
    this.userPool.addTrigger(UserPoolOperation.PRE_SIGN_UP, this.preSignUp.function);
    this.userPool.addTrigger(UserPoolOperation.POST_CONFIRMATION, this.postConfirmation.function);
    if (props.appOrigin) {
      this.customMessage = new AppFunction(this, 'CustomMessage', {
        name: triggers.customMessage.name,
        handler: triggers.customMessage.handler,
        uses: ['app-links'],
        platform: { ...platform, appOrigin: props.appOrigin },
      });
      this.userPool.addTrigger(UserPoolOperation.CUSTOM_MESSAGE, this.customMessage.function);
    } else {
      Annotations.of(this).addWarningV2(
        'course-platform:reset-link',
        'No appOrigin: password reset emails carry the code only. Set -c appOrigin=<WebUrl> (or a custom domain) and redeploy.',
      );
    }

    this.client = this.userPool.addClient('WebClient', {
      // USER_PASSWORD_AUTH for Amplify's flow (as locally, where cognito-local has no SRP), SRP for other clients.
      authFlows: { userPassword: true, userSrp: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });
    (this.client.node.defaultChild as CfnUserPoolClient).overrideLogicalId('UserPoolWebClient');

    for (const role of allRoles) {
      new UserPoolGroup(this, `Group-${role}`, { userPool: this.userPool, groupName: role });
    }

    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG1',
        reason: 'The product spec sets the policy: at least 8 characters with upper case, lower case and a digit; symbols are not required (the local cloud enforces the same rule).',
      },
      {
        id: 'AwsSolutions-COG2',
        reason: 'MFA is not part of the first release: the SPA signs in with USER_PASSWORD_AUTH only; enabling optional TOTP is a later, UI-led change.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason: 'The Plus feature plan (threat protection) is a cost decision for launch; sign-ups are gated by the pre sign-up trigger and the password policy.',
      },
    );
  }
}

/** SES as the pool's sender: `Name <address>` (or an address) from the verified domain identity of the address. */
const sesEmail = (scope: Construct, fromEmail: string) => {
  const address = senderAddress(fromEmail);
  const name = /^\s*"?([^"<]*?)"?\s*</.exec(fromEmail)?.[1]?.trim();
  return UserPoolEmail.withSES({
    fromEmail: address,
    ...(name ? { fromName: name } : {}),
    sesVerifiedDomain: address.split('@')[1]!,
    // The stack's own region (stacks may be environment-agnostic): the identity is verified where we deploy.
    sesRegion: Stack.of(scope).region,
  });
};

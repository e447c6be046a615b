import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { eventHandlers, routes as routeTable } from '#functions/routes.ts';
import { type ApiRoute, ApiRoutes, pascalCase } from '../constructs/api-routes.ts';
import { AppFunction, type FunctionPlatform } from '../constructs/app-function.ts';
import { Alarms, alarmTopic } from '../constructs/alarms.ts';
import { asyncRetries, deadLetterQueues } from '../constructs/async-retries.ts';
import { DeadLetterQueue } from '../constructs/dead-letter-queue.ts';
import { Mail } from '../constructs/mail.ts';
import type { DeploySettings } from './deploy-settings.ts';
import type { ApiEdge } from './web-stack.ts';

export interface ApiStackProps extends StackProps {
  readonly table: ITable;
  readonly userPool: IUserPool;
  readonly userPoolClient: IUserPoolClient;
  readonly secretsKey: IKey;
  /** The asymmetric key certificates are signed with (kms:Sign, kms:GetPublicKey for the functions that sign). */
  readonly certificateKey: IKey;
  /** The data stack's course files bucket (capability 'files'). */
  readonly files: NonNullable<FunctionPlatform['files']>;
  /** The (empty) HTTP API of the Web stack. */
  readonly httpApi: HttpApi;
  /** What the Web stack's distributions send the API: their origin header's values, and the API's own domain if any. */
  readonly edge: ApiEdge;
  readonly appOrigin: string;
  /** The Web stack's custom domains edge (capability 'custom-domains'). */
  readonly customDomains?: FunctionPlatform['customDomains'];
  readonly settings: DeploySettings;
  /** Defaults to functions/routes.ts; tests pass their own. */
  readonly routes?: readonly ApiRoute[];
}

/**
 * Stateless: the functions behind every route, the authorizer, the stage, the SES configuration set, and the function
 * that turns SES bounces and complaints into suppressions, with the dead-letter queue of the notifications it could not
 * apply; the alarms on all of them, on Lambda throttling and on the account's SES reputation (lib/constructs/alarms.ts).
 */
export class ApiStack extends Stack {
  readonly routes: ApiRoutes;
  readonly mail: Mail;
  readonly platform: FunctionPlatform;
  readonly alarms: Alarms;
  readonly feedbackDeadLetters: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { settings } = props;

    this.mail = new Mail(this, 'Mail');
    this.platform = {
      table: props.table,
      userPool: { arn: props.userPool.userPoolArn, id: props.userPool.userPoolId },
      appOrigin: props.appOrigin,
      mail: { configurationSetName: this.mail.configurationSet.configurationSetName, from: settings.mailFrom },
      textModelId: settings.bedrockModelId,
      stripe: {
        apiKeySecretName: settings.stripeApiKeySecretName,
        webhookSecretName: settings.stripeWebhookSecretName,
        connectWebhookSecretName: settings.stripeConnectWebhookSecretName,
        prices: settings.stripePrices,
      },
      google: { clientId: settings.googleOAuthClientId, clientSecretName: settings.googleOAuthClientSecretName },
      secretsKey: props.secretsKey,
      certificateKey: props.certificateKey,
      files: props.files,
      logLevel: settings.logLevel,
      originSecrets: props.edge.originSecrets,
      ...(props.customDomains ? { customDomains: props.customDomains } : {}),
    };

    this.routes = new ApiRoutes(this, 'Routes', {
      httpApi: props.httpApi,
      userPool: props.userPool,
      userPoolClient: props.userPoolClient,
      routes: props.routes ?? routeTable,
      platform: this.platform,
      ...(props.edge.apiDomain ? { domain: props.edge.apiDomain } : {}),
    });

    // SES's bounces and complaints, through the configuration set's topic, onto the suppression list campaigns check.
    const feedback = new AppFunction(this, pascalCase(eventHandlers.sesFeedback.name), {
      ...eventHandlers.sesFeedback,
      table: 'read-write',
      platform: this.platform,
    });
    // SNS invokes the function asynchronously: a notification it cannot deliver (SNS's own retries, up to 23 days for
    // a Lambda endpoint, or at once for a missing function or permission) and one the function failed to apply (after
    // Lambda's retries) both end in the same queue, encrypted with the notifications' own key.
    this.feedbackDeadLetters = new DeadLetterQueue(this, 'FeedbackDeadLetters', { name: deadLetterQueues.sesFeedback, encryptionKey: this.mail.feedbackKey });
    this.feedbackDeadLetters.receiveFailedInvocations(feedback.function, asyncRetries.sesFeedback);
    this.mail.feedbackTopic.addSubscription(new LambdaSubscription(feedback.function, { deadLetterQueue: this.feedbackDeadLetters.forSnsSubscription() }));

    this.alarms = new Alarms(this, 'Alarms', { topic: alarmTopic(this, 'AlarmTopic', settings.alarmTopicArn) });
    this.alarms.watchHttpApi(props.httpApi, this.routes.accessLogs);
    for (const [name, fn] of Object.entries(this.routes.functions)) this.alarms.watchFunction(name, fn.function);
    this.alarms.watchFunction(eventHandlers.sesFeedback.name, feedback.function);
    this.alarms.watchDeadLetterQueue(deadLetterQueues.sesFeedback, this.feedbackDeadLetters.queue);
    this.alarms.watchLambdaThrottles();
    this.alarms.watchMailReputation();
    this.alarms.watchUnfulfilledOrders();

    new CfnOutput(this, 'MailConfigurationSet', { value: this.mail.configurationSet.configurationSetName });
  }
}

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ArnFormat, AssetHashType, Duration, RemovalPolicy, Stack, Stage, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  Architecture,
  Code,
  Function as LambdaFunction,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { tableSchema } from '#data/table-schema.ts';
import { functionTimeoutMs } from '#functions/function-timeouts.ts';
import { acknowledgeGeneratedWildcards } from './nag.ts';
import { jobQueueName } from './job-queue-names.ts';
import {
  type Capability,
  type CloudConfigKey,
  type TableAccess,
  cloudConfigKeys,
  expandCapabilities,
  secretIdKeys,
} from './function-access.ts';
import { reservationOf } from './reserved-concurrency.ts';

/** Repository root: entries are `functions/<handler>.ts`, bundled by bin/bundle-function.ts. */
export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * The function's code: its bundle, built by the project's own esbuild build (lib/constructs/bundling.ts, the one the
 * bench measures; its plugins cannot run in NodejsFunction's esbuild CLI) in a process of its own, as CDK bundles
 * assets synchronously (bin/bundle-function.ts). Hashed by its output, like NodejsFunction's; a stack left out of
 * bundling (`aws:cdk:bundling-stacks`, the infra tests) builds nothing. Never Docker: a failed build fails the synth.
 * docs/decisions/0027-functions-bundled-by-the-project.md.
 */
const bundledCode = (name: string, handler: string, routeModulesDir: string): Code => {
  const command = (outputDir: string) => ['--import', 'tsx', path.join(repoRoot, 'bin', 'bundle-function.ts'), name, handler, outputDir, routeModulesDir];
  return Code.fromAsset(repoRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: Runtime.NODEJS_22_X.bundlingImage,
      // Never run (the local build below always answers); CDK tells assets apart by their bundling options, functions
      // excluded: without it every function of a stack would get the first one's bundle.
      command: ['node', ...command('/asset-output')],
      local: {
        tryBundle(outputDir) {
          const run = spawnSync(process.execPath, command(outputDir), { cwd: repoRoot, encoding: 'utf8' });
          if (run.status !== 0) throw new Error(`Bundling ${name} (functions/${handler}.ts) failed: ${run.error?.message ?? run.stderr}`);
          return true;
        },
      },
    },
  });
};

/** Memory and timeout by workload: 'heavy' functions load the Stripe or Bedrock SDKs and wait on them. */
export const profiles = {
  crud: { memorySize: 256, timeout: Duration.millis(functionTimeoutMs.crud) },
  heavy: { memorySize: 1024, timeout: Duration.millis(functionTimeoutMs.heavy) },
} as const;
export type Profile = keyof typeof profiles;

/**
 * The platform resources a function may be given access to. Each stack passes what exists on its side; asking
 * for a capability whose resource is missing is a synth error, never a silently unset variable.
 */
export interface FunctionPlatform {
  readonly table?: ITable;
  /** `id` is absent for the pool's own triggers: the pool depends on them, so they read `event.userPoolId`. */
  readonly userPool?: { readonly arn: string; readonly id?: string };
  readonly appOrigin?: string;
  readonly mail?: { readonly configurationSetName: string; readonly from: string };
  readonly textModelId?: string;
  /**
   * Names of the three Secrets Manager secrets (plain strings) the operator creates: the API key (capability
   * `payments`), the webhook signing secret (`payments-webhook`) and the Connect endpoint's signing secret
   * (`payments-connect-webhook`). Functions get the names, never the values.
   */
  readonly stripe?: {
    readonly apiKeySecretName: string;
    readonly webhookSecretName: string;
    readonly connectWebhookSecretName: string;
    /** Price ids of the catalogue (not secrets): Starter, Pro, the 100-credit top-up. */
    readonly prices: { readonly starter: string; readonly pro: string; readonly credits: string };
  };
  /** The platform's Google OAuth client (capability 'google-calendar'): its id and its secret's name, never its value. */
  readonly google?: { readonly clientId: string; readonly clientSecretName: string };
  readonly secretsKey?: IKey;
  /** The asymmetric key certificates are signed with (ECC_NIST_P256, SIGN_VERIFY; decision 0030). */
  readonly certificateKey?: IKey;
  /** The course files bucket: capability 'files' reads and writes objects under `courses/` only. */
  readonly files?: { readonly bucketName: string; readonly bucketArn: string };
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /**
   * The values the app and the pages distributions send in `x-origin-verify` (Secrets Manager dynamic references,
   * resolved at deployment; decision 0028): every HTTP route's function checks them.
   */
  readonly originSecrets?: { readonly app: string; readonly pages: string };
  /**
   * Custom domains (capability 'custom-domains'; decision 0055): the multi-tenant distribution whose tenants serve
   * them (its id and ARN), the hostname their CNAME points at, and the platform's own hostnames (comma-separated).
   */
  readonly customDomains?: {
    readonly distributionId: string;
    readonly distributionArn: string;
    /** The connection group the tenants join: its routing endpoint is `cnameTarget`. */
    readonly connectionGroupId: string;
    readonly cnameTarget: string;
    readonly platformHostnames: string;
  };
}

export interface AppFunctionProps {
  /** Stable kebab-case name (route, trigger or job name): descriptions and log lines. */
  readonly name: string;
  /** Module under functions/ without extension, exporting `handler` (e.g. 'http/get-me'). */
  readonly handler: string;
  readonly profile?: Profile;
  readonly table?: TableAccess;
  readonly uses?: readonly Capability[];
  readonly platform: FunctionPlatform;
  /** A fixed physical name, for a function another stack starts by name (a job); CloudFormation's otherwise. */
  readonly functionName?: string;
  /** Behind an HTTP route: it gets the origin header's values (`platform.originSecrets`). */
  readonly httpRoute?: boolean;
  /**
   * The sliced jobs whose queues it sends slices to (decision 0032): a route or job starting their runs (`queues` in
   * functions/routes.ts), a sliced job its own. Implies capability 'job-queues': `sqs:SendMessage` on exactly those
   * queues and their URLs in JOB_QUEUE_URLS, both built from the queues' fixed names (lib/constructs/job-queue-names.ts),
   * so a function in the api stack needs nothing from the jobs stack.
   */
  readonly queues?: readonly string[];
}

/**
 * The one way to make a Lambda function: Node.js 22 on arm64, bundled locally by esbuild (AWS SDK v3 inside the
 * bundle), its own log group with retention, X-Ray active tracing, and an execution role holding exactly what its
 * table access and capabilities need, with the matching environment variables from functions/config.ts.
 */
export class AppFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly capabilities: readonly Capability[];
  private readonly httpRoute: boolean;
  private readonly queues: readonly string[];

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    const { platform } = props;
    this.httpRoute = props.httpRoute ?? false;
    const table = props.table ?? 'none';
    this.queues = [...new Set(props.queues ?? [])].sort();
    if ((props.uses ?? []).includes('job-queues') && this.queues.length === 0) {
      throw new Error(`${props.name} uses 'job-queues' but names no queue: list the jobs whose runs it starts in \`queues\``);
    }
    this.capabilities = expandCapabilities([...(props.uses ?? []), ...(this.queues.length > 0 ? (['job-queues'] as const) : [])]);
    const profile = profiles[props.profile ?? 'crud'];

    const environment = this.environment(props.name, props.profile ?? 'crud', table, platform);
    const secretNames = secretIdKeys.flatMap((key) => (environment[key] === undefined ? [] : [environment[key]]));

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Our own role instead of AWSLambdaBasicExecutionRole: it may write to this log group only.
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);

    // Its route module (lib/constructs/bundling.ts) goes into the cloud assembly, where the bundles are built: a stable
    // place (cdk.out), so the bundle and its asset hash change only when the route does.
    const assembly = Stage.of(this)?.assetOutdir;
    if (!assembly) throw new Error(`${props.name}: an AppFunction must be inside an App (its bundle is built in the cloud assembly)`);
    this.function = new LambdaFunction(this, 'Function', {
      code: bundledCode(props.name, props.handler, path.join(assembly, 'route-modules')),
      handler: 'index.handler',
      description: `${props.name} (functions/${props.handler}.ts)`,
      ...(props.functionName ? { functionName: props.functionName } : {}),
      // Executions kept for this function alone (lib/constructs/reserved-concurrency.ts, decision 0036).
      ...(reservationOf(props.name) === undefined ? {} : { reservedConcurrentExecutions: reservationOf(props.name) }),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: profile.memorySize,
      timeout: profile.timeout,
      role: this.role,
      logGroup: this.logGroup,
      tracing: Tracing.ACTIVE,
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
      // Only functions that read a secret carry the extension: the others start no extra process.
      ...(secretNames.length > 0 ? { paramsAndSecrets: secretsExtension(platform.logLevel ?? 'info') } : {}),
    });

    this.grantTable(table, platform);
    this.grantCapabilities(props.name, platform);
    this.grantSecrets(secretNames);

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "X-Ray PutTraceSegments/PutTelemetryRecords and SES GetAccount (the account's send rate and daily quota, read by the functions that send mail to pace it) support no resource-level permissions; nothing else here uses *.",
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node.js 22 is the platform runtime by decision (ARCHITECTURE.md); moving to 24 is one deliberate change across all functions and local tooling.',
    });
  }

  private environment(name: string, profile: Profile, table: TableAccess, platform: FunctionPlatform): Partial<Record<CloudConfigKey, string>> {
    const values: Record<CloudConfigKey, string | undefined> = {
      TABLE_NAME: platform.table?.tableName,
      USER_POOL_ID: platform.userPool?.id,
      SES_CONFIGURATION_SET: platform.mail?.configurationSetName,
      MAIL_FROM: platform.mail?.from,
      // Names, not values: the function reads the values at run time through the extension (grantSecrets).
      STRIPE_API_KEY_SECRET_ID: platform.stripe?.apiKeySecretName,
      STRIPE_WEBHOOK_SECRET_ID: platform.stripe?.webhookSecretName,
      STRIPE_CONNECT_WEBHOOK_SECRET_ID: platform.stripe?.connectWebhookSecretName,
      STRIPE_PRICE_STARTER: platform.stripe?.prices.starter,
      STRIPE_PRICE_PRO: platform.stripe?.prices.pro,
      STRIPE_PRICE_CREDITS: platform.stripe?.prices.credits,
      BEDROCK_MODEL_ID: platform.textModelId,
      // The providers' own APIs (capability 'meetings'): the same everywhere, so no stack prop.
      ZOOM_API_URL: 'https://api.zoom.us/v2',
      ZOOM_OAUTH_URL: 'https://zoom.us',
      GOOGLE_OAUTH_CLIENT_ID: platform.google?.clientId,
      GOOGLE_OAUTH_CLIENT_SECRET_ID: platform.google?.clientSecretName,
      // Google's own endpoints (the local cloud points these at its stand-in).
      GOOGLE_OAUTH_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
      GOOGLE_TOKEN_URL: 'https://oauth2.googleapis.com/token',
      GOOGLE_CALENDAR_API_URL: 'https://www.googleapis.com/calendar/v3',
      APP_ORIGIN: platform.appOrigin,
      SECRETS_KEY_ID: platform.secretsKey?.keyArn,
      CERTIFICATE_KEY_ID: platform.certificateKey?.keyArn,
      FILES_BUCKET: platform.files?.bucketName,
      // Microsoft's own endpoints for the Teams adapter (capability 'meetings'; decision 0046): the same for every stack.
      GRAPH_API_URL: 'https://graph.microsoft.com',
      MICROSOFT_LOGIN_URL: 'https://login.microsoftonline.com',
      // The job queues it may send to (decision 0032), job name -> queue URL.
      JOB_QUEUE_URLS: this.queues.length > 0 ? JSON.stringify(Object.fromEntries(this.queues.map((job) => [job, jobQueueUrl(Stack.of(this), job)]))) : undefined,
      // Which DynamoDB retry policy fits the function's timeout (functions/adapters/client-policy.ts).
      FUNCTION_PROFILE: profile,
      LOG_LEVEL: platform.logLevel ?? 'info',
      ORIGIN_SECRET: platform.originSecrets?.app,
      PAGES_ORIGIN_SECRET: platform.originSecrets?.pages,
      DOMAIN_CNAME_TARGET: platform.customDomains?.cnameTarget,
      PLATFORM_HOSTNAMES: platform.customDomains?.platformHostnames,
      EDGE_TENANTS_DISTRIBUTION_ID: platform.customDomains?.distributionId,
      EDGE_TENANTS_CONNECTION_GROUP_ID: platform.customDomains?.connectionGroupId,
    };
    const env: Partial<Record<CloudConfigKey, string>> = {};
    for (const key of cloudConfigKeys(table, this.capabilities, this.httpRoute)) {
      const value = values[key];
      // The pool's own triggers cannot know its id (cycle): they take it from the event instead.
      if (value === undefined && key === 'USER_POOL_ID' && platform.userPool) continue;
      if (value === undefined) throw new Error(`${name} needs ${key}, but its stack provides no value for it`);
      env[key] = value;
    }
    return env;
  }

  /**
   * Explicit actions on the table and its named indexes, no `index/*` wildcard. No Scan: every access pattern
   * is a GetItem or Query (ARCHITECTURE.md), and transactions need only the item-level actions.
   */
  private grantTable(access: TableAccess, platform: FunctionPlatform): void {
    if (access === 'none') return;
    if (!platform.table) throw new Error(`${this.node.path} needs table access, but its stack has no table`);
    const { tableArn } = platform.table;
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: access === 'read' ? tableReadActions : [...tableReadActions, ...tableWriteActions],
        resources: [tableArn, ...tableSchema.indexes.map((index) => `${tableArn}/index/${index.name}`)],
      }),
    );
  }

  private grantCapabilities(name: string, platform: FunctionPlatform): void {
    const need = <T>(value: T | undefined, what: string): T => {
      if (value === undefined) throw new Error(`${name} uses ${what}, but its stack provides none`);
      return value;
    };
    const { region, account, partition } = Stack.of(this);
    for (const capability of this.capabilities) {
      switch (capability) {
        case 'directory:add-to-group':
        case 'directory:admin': {
          const pool = need(platform.userPool, 'the user pool');
          // A separate policy, not the role's default one: the function does not wait for it, so a pool whose
          // trigger is this very function can still be named by ARN here without a dependency cycle.
          new Policy(this, capability === 'directory:admin' ? 'DirectoryAdmin' : 'DirectoryGroups', {
            roles: [this.role],
            statements: [
              new PolicyStatement({
                effect: Effect.ALLOW,
                actions:
                  capability === 'directory:admin'
                    ? [
                        'cognito-idp:AdminCreateUser',
                        'cognito-idp:AdminSetUserPassword',
                        'cognito-idp:AdminGetUser',
                        'cognito-idp:AdminListGroupsForUser',
                        'cognito-idp:AdminRemoveUserFromGroup',
                        'cognito-idp:AdminDisableUser',
                        'cognito-idp:AdminEnableUser',
                        'cognito-idp:AdminUserGlobalSignOut',
                        // The account deletion's job (issue 37 point 2).
                        'cognito-idp:AdminDeleteUser',
                      ]
                    : ['cognito-idp:AdminAddUserToGroup'],
                resources: [pool.arn],
              }),
            ],
          });
          break;
        }
        case 'directory:read': {
          // Only for functions that need no more of the directory: 'directory:admin' grants AdminGetUser already.
          if (this.capabilities.includes('directory:admin')) break;
          const pool = need(platform.userPool, 'the user pool');
          new Policy(this, 'DirectoryRead', {
            roles: [this.role],
            statements: [new PolicyStatement({ effect: Effect.ALLOW, actions: ['cognito-idp:AdminGetUser'], resources: [pool.arn] })],
          });
          break;
        }
        case 'mail': {
          const mail = need(platform.mail, 'mail settings');
          const address = senderAddress(mail.from);
          const domain = address.split('@')[1] ?? address;
          this.role.addToPrincipalPolicy(
            new PolicyStatement({
              actions: ['ses:SendEmail', 'ses:SendBulkEmail'],
              resources: [
                `arn:${partition}:ses:${region}:${account}:identity/${domain}`,
                `arn:${partition}:ses:${region}:${account}:identity/${address}`,
                `arn:${partition}:ses:${region}:${account}:configuration-set/${mail.configurationSetName}`,
              ],
            }),
          );
          // The send rate and the daily quota the senders pace themselves by (GetAccount has no resource to scope to).
          this.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] }));
          break;
        }
        case 'text-model': {
          const modelId = need(platform.textModelId, 'a text model id');
          this.role.addToPrincipalPolicy(
            new PolicyStatement({
              actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
              resources: bedrockResources(modelId, partition, region, account),
            }),
          );
          if (isInferenceProfile(modelId)) {
            Validations.of(this.role).acknowledge({
              id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${baseModelId(modelId)}]`,
              reason: 'A cross-region inference profile routes to this one model in any of its regions.',
            });
          }
          break;
        }
        case 'secrets':
          // Envelope encryption (functions/adapters/envelope-cipher.ts) asks KMS for data keys and unwraps them: exactly
          // these two actions, no wildcard (grantEncryptDecrypt would add GenerateDataKey* and ReEncrypt*).
          // Only for the purpose the cipher uses the key for: a creator's secret, its context exactly `creatorId`
          // (KMS refuses a data key asked for or unwrapped under any other context).
          this.role.addToPrincipalPolicy(
            new PolicyStatement({
              actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
              resources: [need(platform.secretsKey, 'the secrets key').keyArn],
              conditions: {
                'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['creatorId'] },
                Null: { 'kms:EncryptionContextKeys': 'false' },
              },
            }),
          );
          break;
        case 'certificate-signing':
          // Sign and read the public key: the private key never leaves KMS, and nothing here decrypts.
          need(platform.certificateKey, 'the certificate signing key').grant(this.role, 'kms:Sign', 'kms:GetPublicKey');
          break;
        case 'payments':
        case 'payments-webhook':
        case 'payments-connect-webhook':
          need(platform.stripe, 'Stripe settings'); // the secret grants follow the secret ids (grantSecrets)
          break;
        case 'google-calendar':
          need(platform.google, 'the Google OAuth client'); // the secret grant follows the secret id (grantSecrets)
          break;
        case 'app-links':
          need(platform.appOrigin, 'the app origin');
          break;
        case 'meetings':
          // Outbound HTTPS to the providers only: no AWS resource, no grant.
          break;
        case 'custom-domains': {
          const domains = need(platform.customDomains, 'the custom domains distribution');
          // The tenants of the one multi-tenant distribution, each made at run time for a creator's hostname (its name):
          // create, read, disable and delete them, and read their CloudFront-managed certificates. Creating a tenant with
          // a managed certificate has CloudFront request it from ACM on the caller's behalf.
          const policy = new Policy(this, 'CustomDomains', {
            roles: [this.role],
            statements: [
              new PolicyStatement({
                actions: ['cloudfront:CreateDistributionTenant', 'cloudfront:GetDistributionTenant', 'cloudfront:UpdateDistributionTenant', 'cloudfront:DeleteDistributionTenant', 'cloudfront:GetManagedCertificateDetails'],
                resources: [domains.distributionArn, `arn:${partition}:cloudfront::${account}:distribution-tenant/*`],
              }),
              new PolicyStatement({ actions: ['acm:RequestCertificate', 'acm:DescribeCertificate'], resources: ['*'] }),
            ],
          });
          acknowledgeGeneratedWildcards(
            policy,
            "Distribution tenants are created at run time, one per creator's custom domain (decision 0055), with ids CloudFront assigns: the grant is the tenants of this account; ACM's RequestCertificate supports no resource-level permission (the certificate does not exist yet).",
          );
          break;
        }
        case 'job-queues':
          // SendMessage covers SendMessageBatch; the queues are SSE-SQS, so no KMS grant.
          this.role.addToPrincipalPolicy(
            new PolicyStatement({ actions: ['sqs:SendMessage'], resources: this.queues.map((job) => `arn:${partition}:sqs:${region}:${account}:${jobQueueName(job)}`) }),
          );
          break;
        case 'files:read': {
          const files = need(platform.files, 'the course files bucket');
          // Reading back uploads under courses/ (a person's data export): GetObject alone, nothing written or deleted.
          const policy = new Policy(this, 'FilesRead', {
            roles: [this.role],
            statements: [new PolicyStatement({ actions: ['s3:GetObject'], resources: [`${files.bucketArn}/${filesKeyPrefix}*`] })],
          });
          acknowledgeGeneratedWildcards(
            policy,
            `Object keys are courses/<courseId>/<lessonId>/..., created at run time: the grant is reading objects under ${filesKeyPrefix} and nothing else in the bucket.`,
          );
          break;
        }
        case 'files:erase-submissions': {
          const files = need(platform.files, 'the course files bucket');
          // A deleted account's handed-in files (courses/<courseId>/<lessonId>/submissions/<learnerId>/<fileId>):
          // DeleteObject alone (DeleteObjects asks it per key), on submissions' keys only, never a creator's lesson file.
          const policy = new Policy(this, 'FilesEraseSubmissions', {
            roles: [this.role],
            statements: [new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [`${files.bucketArn}/${submissionFilesKeyPattern}`] })],
          });
          acknowledgeGeneratedWildcards(
            policy,
            `Object keys are courses/<courseId>/<lessonId>/submissions/<learnerId>/<fileId>, created at run time: the grant is deleting objects matching ${submissionFilesKeyPattern} and nothing else in the bucket.`,
          );
          break;
        }
        case 'files': {
          const files = need(platform.files, 'the course files bucket');
          // Objects under courses/ only, never the bucket itself (no listing, no configuration). PutObject also covers
          // CreateMultipartUpload, UploadPart (what the presigned part URLs do) and CompleteMultipartUpload; GetObject
          // covers HeadObject and the presigned downloads.
          const policy = new Policy(this, 'Files', {
            roles: [this.role],
            statements: [
              new PolicyStatement({
                actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
                resources: [`${files.bucketArn}/${filesKeyPrefix}*`],
              }),
            ],
          });
          acknowledgeGeneratedWildcards(
            policy,
            `Object keys are courses/<courseId>/<lessonId>/<fileId>, created at run time: the grant is every object under ${filesKeyPrefix} and nothing else in the bucket.`,
          );
          break;
        }
        case 'exports': {
          const files = need(platform.files, 'the files bucket');
          // Exports under exports/ only: PutObject covers the multipart upload's start, parts and completion, GetObject
          // the presigned download; AbortMultipartUpload gives up an export that failed halfway.
          const policy = new Policy(this, 'Exports', {
            roles: [this.role],
            statements: [new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload'], resources: [`${files.bucketArn}/${exportsKeyPrefix}*`] })],
          });
          acknowledgeGeneratedWildcards(
            policy,
            `Object keys are exports/<owner>/<exportId>.csv, created at run time: the grant is every object under ${exportsKeyPrefix} and nothing else in the bucket.`,
          );
          break;
        }
        case 'avatars':
        case 'avatars:read': {
          const files = need(platform.files, 'the files bucket');
          // The creators' pictures, under avatars/ only. Presigning a PUT (the browser's upload) needs PutObject,
          // checking it HeadObject (GetObject), replacing it DeleteObject; the public pages only sign GETs.
          const policy = new Policy(this, capability === 'avatars' ? 'Avatars' : 'AvatarsRead', {
            roles: [this.role],
            statements: [
              new PolicyStatement({
                actions: capability === 'avatars' ? ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'] : ['s3:GetObject'],
                resources: [`${files.bucketArn}/${avatarsKeyPrefix}*`],
              }),
            ],
          });
          acknowledgeGeneratedWildcards(
            policy,
            `Object keys are avatars/<creatorId>/<avatarId>, created at run time: the grant is every object under ${avatarsKeyPrefix} and nothing else in the bucket.`,
          );
          break;
        }
      }
    }
  }

  /**
   * `secretsmanager:GetSecretValue` on exactly the secrets whose names the function was given, nothing else (no
   * DescribeSecret, no other secret). An imported-by-name secret's ARN ends in `-` and six random characters: `??????`
   * matches those six and no longer name. Secrets encrypted with the account's `aws/secretsmanager` key need no KMS
   * grant (docs/deploy.md).
   */
  private grantSecrets(names: readonly string[]): void {
    if (names.length === 0) return;
    const stack = Stack.of(this);
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: names.map((name) =>
          stack.formatArn({
            service: 'secretsmanager',
            resource: 'secret',
            resourceName: `${name}-??????`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ),
      }),
    );
  }
}

/**
 * The AWS Parameters and Secrets Lambda Extension (an AWS-managed layer): functions/adapters/secrets.ts asks it over
 * localhost on its default port (2773, which it also writes into the function's environment), so no Secrets Manager
 * SDK sits in the bundle. It caches each secret for 5 minutes (its maximum): a rotated Stripe key reaches every
 * function within minutes, without a deployment. A function reads at most two secrets, hence the small cache.
 */
const secretsExtension = (logLevel: NonNullable<FunctionPlatform['logLevel']>): ParamsAndSecretsLayerVersion =>
  ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
    cacheEnabled: true,
    cacheSize: 10,
    secretsManagerTtl: Duration.minutes(5),
    // Give up before the adapter does (3 s), so the function sees the extension's error rather than a bare timeout.
    secretsManagerTimeout: Duration.seconds(2),
    logLevel: extensionLogLevels[logLevel],
  });

const extensionLogLevels = {
  debug: ParamsAndSecretsLogLevel.DEBUG,
  info: ParamsAndSecretsLogLevel.INFO,
  warn: ParamsAndSecretsLogLevel.WARN,
  error: ParamsAndSecretsLogLevel.ERROR,
} as const;

/** Every course file's key is `courses/<courseId>/<lessonId>/<fileId>` (docs/decisions/0014-file-hosting.md): the 'files' grant stops at this prefix. */
export const filesKeyPrefix = 'courses/';
/** The files learners hand in (core/assignments/rules.ts submissionFileKey): the 'files:erase-submissions' grant matches only these. */
export const submissionFilesKeyPattern = `${filesKeyPrefix}*/*/submissions/*`;
/** Every creator's picture is `avatars/<creatorId>/<avatarId>`: the 'avatars' grants stop at this prefix. */
export const avatarsKeyPrefix = 'avatars/';
/** Where the exports are written (capability 'exports'); the bucket expires them after a day. */
export const exportsKeyPrefix = 'exports/';

export const tableReadActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
export const tableWriteActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/** `Name <a@b.c>` or `a@b.c` -> `a@b.c`. */
export const senderAddress = (from: string): string => (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();

const inferenceProfilePrefix = /^(us|eu|apac|us-gov|global)\./;
const isInferenceProfile = (modelId: string): boolean => inferenceProfilePrefix.test(modelId);
const baseModelId = (modelId: string): string => modelId.replace(inferenceProfilePrefix, '');

/** A foundation model in this region, or an inference profile plus the model it may route to in any region. */
const bedrockResources = (modelId: string, partition: string, region: string, account: string): string[] =>
  isInferenceProfile(modelId)
    ? [
        `arn:${partition}:bedrock:${region}:${account}:inference-profile/${modelId}`,
        `arn:${partition}:bedrock:*::foundation-model/${baseModelId(modelId)}`,
      ]
    : [`arn:${partition}:bedrock:${region}::foundation-model/${modelId}`];

/** A job queue's URL, from its fixed name (as SQS forms it: `https://sqs.<region>.<suffix>/<account>/<name>`). */
export const jobQueueUrl = (stack: Stack, job: string): string => `https://sqs.${stack.region}.${stack.urlSuffix}/${stack.account}/${jobQueueName(job)}`;

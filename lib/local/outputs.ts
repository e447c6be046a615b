import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `.local/outputs.json`: the same keys as the CDK stack outputs (`cdk deploy --outputs-file`) plus the
 * local-only ones (stand-in endpoints, seeded accounts). Tests, `npm run invoke` and Playwright read it.
 */
export interface Outputs {
  Region: string;
  ApiUrl: string;
  WebUrl: string;
  /** The pages origin: a published landing page is `${PagesUrl}/p/<slug>` (no trailing slash). */
  PagesUrl: string;
  UserPoolId: string;
  UserPoolClientId: string;
  CognitoEndpoint: string;
  TableName: string;
  DynamoDbEndpoint: string;
  SesEndpoint: string;
  StripeApiUrl: string;
  StripeWebhookSecret: string;
  /** The Connect webhook endpoint's signing secret (events on creators' connected accounts). */
  StripeConnectWebhookSecret: string;
  BedrockEndpoint: string;
  /** The secrets stand-in (the Parameters and Secrets Lambda Extension's API): `npm run invoke` reads secrets there. */
  SecretsEndpoint: string;
  /** The local Lambda Invoke endpoint (Cognito's triggers, and the jobs the API starts at once). */
  LambdaEndpoint: string;
  /** The S3 emulator (path-style, credentials S3RVER/S3RVER); the course files bucket is `course-files`. */
  FilesEndpoint: string;
  FilesBucket: string;
  /** The KMS stand-in (lib/local/kms/) and the key certificates are signed with there (in AWS: CertificateKeyArn). */
  KmsEndpoint: string;
  /** The SQS stand-in: the sliced jobs' queues (their URLs: `<SqsEndpoint>/000000000000/<jobQueueName(job)>`). */
  SqsEndpoint: string;
  CertificateKeyArn: string;
  /**
   * The Zoom stand-in's demo Server-to-Server OAuth app (lib/local/zoom/): its account id, client id (the spec's API
   * Key), client secret (API Secret), REST API base (`.../v2`) and OAuth base (`/oauth/token` under it).
   */
  ZoomAccountId: string;
  ZoomClientId: string;
  ZoomClientSecret: string;
  ZoomApiUrl: string;
  ZoomOAuthUrl: string;
  /**
   * The Microsoft stand-in (lib/local/microsoft/; decision 0046): its demo app registration (tenant, client id and
   * secret, the organiser's mailbox), Graph's base (`/v1.0/...` under it) and Microsoft identity's
   * (`/{tenant}/oauth2/v2.0/token` under it; its viewer at `/`).
   */
  TeamsTenantId: string;
  TeamsClientId: string;
  TeamsClientSecret: string;
  TeamsOrganizerEmail: string;
  GraphApiUrl: string;
  MicrosoftLoginUrl: string;
  /**
   * The Google stand-in (lib/local/google/): Calendar v3's base (`.../calendar/v3`), the consent screen, the token
   * endpoint and the platform's OAuth client id (its secret is in the secrets stand-in).
   */
  GoogleCalendarApiUrl: string;
  GoogleOAuthUrl: string;
  GoogleTokenUrl: string;
  GoogleOAuthClientId: string;
  /**
   * Custom domains (issue 32, decision 0055): the DNS stand-in's control endpoint (`PUT <DnsControlUrl>/records
   * {name, type, value}`), its UDP server (`127.0.0.1:<port>`, the functions' DNS_RESOLVER), and the storefront entry
   * that answers a request whose `Host` is an active custom domain.
   */
  DnsControlUrl: string;
  DnsResolver: string;
  StorefrontUrl: string;
  AdminEmail: string;
  AdminPassword: string;
  /** Seeded on a Starter trial with its credits: signing in shows a live account. */
  DemoCreatorEmail: string;
  DemoCreatorPassword: string;
  /** Seeded without a plan: signing in shows the plan picker. */
  DemoNewCreatorEmail: string;
  DemoNewCreatorPassword: string;
  /** The group leader with the demo creator's team licence and its members. */
  DemoLeaderEmail: string;
  DemoLeaderPassword: string;
  /** One of the demo creator's dozen learners (every demo learner has the same password). */
  DemoLearnerEmail: string;
  DemoLearnerPassword: string;
  /**
   * The fault control (docs/faults.md), only when the local cloud was started with faults on (LOCAL_FAULTS=1): the
   * functions then reach DynamoDB, SES, Cognito, Stripe, Bedrock, Zoom and Microsoft through fault proxies (the endpoints above stay
   * the services' own).
   */
  FaultsUrl?: string;
}

/** `.local/` unless LOCAL_DATA_DIR moves it. */
export const defaultDataDir = (env: NodeJS.ProcessEnv = process.env): string => env.LOCAL_DATA_DIR || '.local';

export const outputsFile = (dataDir: string): string => join(dataDir, 'outputs.json');

export const writeOutputs = (dataDir: string, outputs: Outputs): void => {
  writeFileSync(outputsFile(dataDir), `${JSON.stringify(outputs, null, 2)}\n`);
};

export const readOutputs = (dataDir: string): Outputs => {
  const file = outputsFile(dataDir);
  if (!existsSync(file)) {
    throw new Error(`${file} does not exist: the local cloud has never run here. Start it once with \`npm start\`.`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Outputs;
};

/**
 * The SPA's runtime config (/config.json): the keys the cloud's web stack writes (Region, UserPoolId,
 * UserPoolClientId, PagesUrl, AppUrl) plus the local Cognito endpoint.
 */
export const webConfig = (outputs: Outputs) => ({
  Region: outputs.Region,
  UserPoolId: outputs.UserPoolId,
  UserPoolClientId: outputs.UserPoolClientId,
  CognitoEndpoint: outputs.CognitoEndpoint,
  PagesUrl: outputs.PagesUrl,
  // The app's own address: on any other host (the storefront entry's) the SPA looks for a creator's custom domain.
  AppUrl: outputs.WebUrl,
});

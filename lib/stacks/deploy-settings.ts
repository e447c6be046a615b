import type { Construct } from 'constructs';

/**
 * What an operator chooses per deployment, read from CDK context (cdk.json `context`, or `-c key=value`).
 * Secrets are not settings: only the *names* of the Stripe secrets are, their values stay in Secrets Manager.
 * docs/deploy.md explains each one.
 */
export interface DeploySettings {
  /** Custom domain of the web app (e.g. courses.example.com); needs `certificateArn`. */
  readonly domainName?: string;
  /** ACM certificate in us-east-1 covering `domainName` (CloudFront only takes certificates from there). */
  readonly certificateArn?: string;
  /**
   * Context `apiOriginDomainName` + `apiOriginCertificateArn` (an ACM certificate in the stacks' region): the HTTP
   * API's own custom domain, which only CloudFront calls. With it the API's default execute-api endpoint is disabled
   * (CloudFront can reach an HTTP API without one only through a custom domain); without it the endpoint stays, and
   * the origin header still refuses whatever did not come through CloudFront (decision 0028).
   */
  readonly apiOrigin?: { readonly domainName: string; readonly certificateArn: string };
  /** Sender of every email, an SES-verified address or domain: `Name <no-reply@example.com>`. */
  readonly mailFrom: string;
  /** Bedrock model or inference profile id for the landing-page generator. */
  readonly bedrockModelId: string;
  /** Name of the Secrets Manager secret holding the Stripe API key (a plain string, `sk_...` or `rk_...`). */
  readonly stripeApiKeySecretName: string;
  /** Name of the Secrets Manager secret holding the Stripe webhook signing secret (a plain string, `whsec_...`). */
  readonly stripeWebhookSecretName: string;
  /** Name of the Secrets Manager secret holding the Connect webhook endpoint's signing secret (a plain string, `whsec_...`). */
  readonly stripeConnectWebhookSecretName: string;
  /**
   * The platform's Google OAuth client (issue 30: Google Calendar by the creator's consent; docs/deploy.md): its id
   * (context `googleOAuthClientId`, not a secret) and the name of the Secrets Manager secret holding its client secret
   * (a plain string; context `googleOAuthClientSecretName`). Its authorised redirect URI is
   * `<app origin>/api/integrations/google/callback`.
   */
  readonly googleOAuthClientId: string;
  readonly googleOAuthClientSecretName: string;
  /** Stripe price ids: Starter (GBP 28/month), Pro (GBP 67/month), the 100-credit top-up (GBP 5, one-off). */
  readonly stripePrices: { readonly starter: string; readonly pro: string; readonly credits: string };
  /**
   * The app's public origin for links in the user pool's own emails (the password reset link). The pool is deployed
   * before the distribution, so it cannot read the CloudFront URL: `https://<domainName>` when a domain is set,
   * otherwise context `appOrigin` (the WebUrl output of a first deployment). Without either, reset emails carry the
   * code only (Cognito's default message).
   */
  readonly appOrigin?: string;
  /**
   * Context `fromEmail` (`Name <address>` or an address): the pool sends its emails through SES as this sender,
   * from the verified SES domain identity of the address. Unset: Cognito's own sender (a low daily quota).
   */
  readonly fromEmail?: string;
  /** Log level of every function. */
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * Context `waf` (default true): an AWS WAF web ACL in front of the distribution (its own stack, in us-east-1).
   * `-c waf=false` leaves it out, for a cheap sandbox (docs/decisions/0009-secrets-and-edge-protection.md).
   */
  readonly waf: boolean;
  /**
   * Context `alarmTopicArn`: an existing standard SNS topic (same region) that every CloudWatch alarm notifies, on
   * ALARM and on OK; its policy (and its KMS key, if encrypted) must let cloudwatch.amazonaws.com publish. Unset: the
   * data stack creates one (`alarmTopicName` in lib/constructs/alarms.ts, KMS-encrypted, TLS only).
   */
  readonly alarmTopicArn?: string;
  /** Context `alarmEmail`: an address subscribed to the topic the data stack creates (confirm the email AWS sends). */
  readonly alarmEmail?: string;
}

export const defaultDeploySettings: DeploySettings = {
  mailFrom: 'Course Platform <no-reply@example.com>',
  bedrockModelId: 'anthropic.claude-3-haiku-20240307-v1:0',
  stripeApiKeySecretName: 'course-platform/stripe-api-key',
  stripeWebhookSecretName: 'course-platform/stripe-webhook-secret',
  stripeConnectWebhookSecretName: 'course-platform/stripe-connect-webhook-secret',
  stripePrices: { starter: 'price_starter_monthly', pro: 'price_pro_monthly', credits: 'price_credits_100' },
  googleOAuthClientId: 'set-googleOAuthClientId.apps.googleusercontent.com',
  googleOAuthClientSecretName: 'course-platform/google-oauth-client-secret',
  logLevel: 'info',
  waf: true,
};

/** Context keys of earlier releases: naming one fails the synth with what replaced it, instead of being ignored. */
const retiredContext: Record<string, string> = {
  stripeSecretName:
    'the Stripe keys are now two plain-string secrets: set "stripeApiKeySecretName" and "stripeWebhookSecretName" (docs/deploy.md)',
  stripeSecretVersionId:
    'functions now read the Stripe secrets at run time (within 5 minutes of a change): no version to pin (docs/deploy.md)',
};

const logLevels = ['debug', 'info', 'warn', 'error'] as const;

/** Reads the settings from the app's context; unknown or malformed values fail the synth with a clear message. */
export const readDeploySettings = (scope: Construct): DeploySettings => {
  const text = (key: string): string | undefined => {
    const value: unknown = scope.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new Error(`context "${key}" must be a string`);
    return value.trim();
  };
  /** `-c key=false` arrives as a string, cdk.json may hold a boolean: both are accepted, nothing else. */
  const flag = (key: string): boolean | undefined => {
    const value: unknown = scope.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    throw new Error(`context "${key}" must be true or false`);
  };
  /** A secret *name* (never an ARN or a value): the grant and the functions' secret ids are built from it. */
  const secretName = (key: string): string | undefined => {
    const name = text(key);
    if (name !== undefined && !/^[A-Za-z0-9/_+=.@-]{1,512}$/.test(name)) {
      throw new Error(`context "${key}" must be a Secrets Manager secret name (letters, digits and /_+=.@-), not an ARN or a value`);
    }
    return name;
  };
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) {
    throw new Error('context "domainName" and "certificateArn" go together: set both or neither');
  }
  const apiOriginDomainName = text('apiOriginDomainName');
  const apiOriginCertificateArn = text('apiOriginCertificateArn');
  if (Boolean(apiOriginDomainName) !== Boolean(apiOriginCertificateArn)) {
    throw new Error('context "apiOriginDomainName" and "apiOriginCertificateArn" go together: set both or neither');
  }
  if (apiOriginDomainName !== undefined && !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(apiOriginDomainName)) {
    throw new Error('context "apiOriginDomainName" must be a host name, e.g. api-origin.courses.example.com');
  }
  const logLevel = text('logLevel') ?? defaultDeploySettings.logLevel;
  if (!logLevels.includes(logLevel as DeploySettings['logLevel'])) {
    throw new Error(`context "logLevel" must be one of ${logLevels.join(', ')}`);
  }
  for (const [key, replacement] of Object.entries(retiredContext)) {
    if (scope.node.tryGetContext(key) !== undefined) throw new Error(`context "${key}" is no longer read: ${replacement}`);
  }
  const appOrigin = text('appOrigin') ?? (domainName ? `https://${domainName}` : undefined);
  if (appOrigin !== undefined && !/^https:\/\/[^/?#\s]+$/.test(appOrigin)) {
    throw new Error('context "appOrigin" must be an https origin without a path, e.g. https://d123.cloudfront.net');
  }
  const alarmTopicArn = text('alarmTopicArn');
  if (alarmTopicArn !== undefined && !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(alarmTopicArn)) {
    throw new Error('context "alarmTopicArn" must be the ARN of a standard SNS topic, e.g. arn:aws:sns:eu-west-2:123456789012:ops-alarms');
  }
  const alarmEmail = text('alarmEmail');
  if (alarmEmail !== undefined && !/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(alarmEmail)) {
    throw new Error('context "alarmEmail" must be an email address');
  }
  if (alarmTopicArn !== undefined && alarmEmail !== undefined) {
    throw new Error('context "alarmEmail" subscribes to the topic the stacks create; with "alarmTopicArn", subscribe to that topic yourself');
  }
  const fromEmail = text('fromEmail');
  if (fromEmail !== undefined && !/^(?:[^<>]*<)?[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+>?$/.test(fromEmail)) {
    throw new Error('context "fromEmail" must be an email address, optionally as "Name <address>"');
  }
  return {
    ...(domainName && certificateArn ? { domainName, certificateArn } : {}),
    ...(apiOriginDomainName && apiOriginCertificateArn ? { apiOrigin: { domainName: apiOriginDomainName, certificateArn: apiOriginCertificateArn } } : {}),
    mailFrom: text('mailFrom') ?? defaultDeploySettings.mailFrom,
    bedrockModelId: text('bedrockModelId') ?? defaultDeploySettings.bedrockModelId,
    stripeApiKeySecretName: secretName('stripeApiKeySecretName') ?? defaultDeploySettings.stripeApiKeySecretName,
    stripeWebhookSecretName: secretName('stripeWebhookSecretName') ?? defaultDeploySettings.stripeWebhookSecretName,
    stripeConnectWebhookSecretName: secretName('stripeConnectWebhookSecretName') ?? defaultDeploySettings.stripeConnectWebhookSecretName,
    stripePrices: {
      starter: text('stripePriceStarter') ?? defaultDeploySettings.stripePrices.starter,
      pro: text('stripePricePro') ?? defaultDeploySettings.stripePrices.pro,
      credits: text('stripePriceCredits') ?? defaultDeploySettings.stripePrices.credits,
    },
    googleOAuthClientId: text('googleOAuthClientId') ?? defaultDeploySettings.googleOAuthClientId,
    googleOAuthClientSecretName: secretName('googleOAuthClientSecretName') ?? defaultDeploySettings.googleOAuthClientSecretName,
    ...(appOrigin ? { appOrigin } : {}),
    ...(fromEmail ? { fromEmail } : {}),
    logLevel: logLevel as DeploySettings['logLevel'],
    waf: flag('waf') ?? defaultDeploySettings.waf,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
  };
};

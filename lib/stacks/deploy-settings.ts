import type { Construct } from 'constructs';

/**
 * What an operator chooses per deployment, read from CDK context (cdk.json `context`, or `-c key=value`).
 * Secrets are not settings: only the *name* of the Stripe secret is, its value stays in Secrets Manager.
 * docs/deploy.md explains each one.
 */
export interface DeploySettings {
  /** Custom domain of the web app (e.g. courses.example.com); needs `certificateArn`. */
  readonly domainName?: string;
  /** ACM certificate in us-east-1 covering `domainName` (CloudFront only takes certificates from there). */
  readonly certificateArn?: string;
  /** Sender of every email, an SES-verified address or domain: `Name <no-reply@example.com>`. */
  readonly mailFrom: string;
  /** Bedrock model or inference profile id for the landing-page generator. */
  readonly bedrockModelId: string;
  /** Secrets Manager secret holding `{ "secretKey": "sk_...", "webhookSecret": "whsec_..." }`. */
  readonly stripeSecretName: string;
  /** Stripe price ids: Starter (GBP 28/month), Pro (GBP 67/month), the 100-credit top-up (GBP 5, one-off). */
  readonly stripePrices: { readonly starter: string; readonly pro: string; readonly credits: string };
  /** Pin a version of that secret: changing it makes CloudFormation re-resolve the values. */
  readonly stripeSecretVersionId?: string;
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
}

export const defaultDeploySettings: DeploySettings = {
  mailFrom: 'Course Platform <no-reply@example.com>',
  bedrockModelId: 'anthropic.claude-3-haiku-20240307-v1:0',
  stripeSecretName: 'course-platform/stripe',
  stripePrices: { starter: 'price_starter_monthly', pro: 'price_pro_monthly', credits: 'price_credits_100' },
  logLevel: 'info',
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
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) {
    throw new Error('context "domainName" and "certificateArn" go together: set both or neither');
  }
  const logLevel = text('logLevel') ?? defaultDeploySettings.logLevel;
  if (!logLevels.includes(logLevel as DeploySettings['logLevel'])) {
    throw new Error(`context "logLevel" must be one of ${logLevels.join(', ')}`);
  }
  const stripeSecretVersionId = text('stripeSecretVersionId');
  const appOrigin = text('appOrigin') ?? (domainName ? `https://${domainName}` : undefined);
  if (appOrigin !== undefined && !/^https:\/\/[^/?#\s]+$/.test(appOrigin)) {
    throw new Error('context "appOrigin" must be an https origin without a path, e.g. https://d123.cloudfront.net');
  }
  const fromEmail = text('fromEmail');
  if (fromEmail !== undefined && !/^(?:[^<>]*<)?[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+>?$/.test(fromEmail)) {
    throw new Error('context "fromEmail" must be an email address, optionally as "Name <address>"');
  }
  return {
    ...(domainName && certificateArn ? { domainName, certificateArn } : {}),
    mailFrom: text('mailFrom') ?? defaultDeploySettings.mailFrom,
    bedrockModelId: text('bedrockModelId') ?? defaultDeploySettings.bedrockModelId,
    stripeSecretName: text('stripeSecretName') ?? defaultDeploySettings.stripeSecretName,
    stripePrices: {
      starter: text('stripePriceStarter') ?? defaultDeploySettings.stripePrices.starter,
      pro: text('stripePricePro') ?? defaultDeploySettings.stripePrices.pro,
      credits: text('stripePriceCredits') ?? defaultDeploySettings.stripePrices.credits,
    },
    ...(stripeSecretVersionId ? { stripeSecretVersionId } : {}),
    ...(appOrigin ? { appOrigin } : {}),
    ...(fromEmail ? { fromEmail } : {}),
    logLevel: logLevel as DeploySettings['logLevel'],
  };
};

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
  /** Pin a version of that secret: changing it makes CloudFormation re-resolve the values. */
  readonly stripeSecretVersionId?: string;
  /** Log level of every function. */
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
}

export const defaultDeploySettings: DeploySettings = {
  mailFrom: 'Course Platform <no-reply@example.com>',
  bedrockModelId: 'anthropic.claude-3-haiku-20240307-v1:0',
  stripeSecretName: 'course-platform/stripe',
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
  return {
    ...(domainName && certificateArn ? { domainName, certificateArn } : {}),
    mailFrom: text('mailFrom') ?? defaultDeploySettings.mailFrom,
    bedrockModelId: text('bedrockModelId') ?? defaultDeploySettings.bedrockModelId,
    stripeSecretName: text('stripeSecretName') ?? defaultDeploySettings.stripeSecretName,
    ...(stripeSecretVersionId ? { stripeSecretVersionId } : {}),
    logLevel: logLevel as DeploySettings['logLevel'],
  };
};

import type { App, Environment } from 'aws-cdk-lib';
import type { ApiRoute } from '../constructs/api-routes.ts';
import { ApiStack } from './api-stack.ts';
import { DataStack } from './data-stack.ts';
import type { DeploySettings } from './deploy-settings.ts';
import { EdgeStack } from './edge-stack.ts';
import { type JobDef, JobsStack } from './jobs-stack.ts';
import { WebStack } from './web-stack.ts';

export interface CoursePlatformOptions {
  readonly settings: DeploySettings;
  readonly env?: Environment;
  /** Tests only: another route table, job list or web build instead of the real ones. */
  readonly routes?: readonly ApiRoute[];
  readonly jobs?: readonly JobDef[];
  readonly distDir?: string;
}

/**
 * The stacks and what flows between them, in deployment order:
 * Data (table, pool, key, files bucket) and Edge (WAF web ACL, us-east-1; unless `waf` is off)
 *   -> Web (distribution, bucket, empty HTTP API) -> Api (routes, functions) -> Jobs.
 */
export const createCoursePlatform = (app: App, options: CoursePlatformOptions) => {
  const { settings, env } = options;
  if (settings.waf && !env?.region) {
    throw new Error(
      'The WAF web ACL lives in us-east-1 and the Web stack reads its ARN across regions, which needs the region of ' +
        'the other stacks: synthesize through the cdk CLI (it sets CDK_DEFAULT_REGION) or pass -c waf=false.',
    );
  }
  const edge = settings.waf
    ? new EdgeStack(app, 'CoursePlatformEdge', {
        description: 'Course platform: WAF web ACL of the CloudFront distribution (us-east-1)',
        ...(env?.account ? { account: env.account } : {}),
      })
    : undefined;
  const data = new DataStack(app, 'CoursePlatformData', {
    env,
    description: 'Course platform: table, user pool and its triggers, secrets key (stateful)',
    ...(settings.appOrigin ? { appOrigin: settings.appOrigin } : {}),
    ...(settings.fromEmail ? { fromEmail: settings.fromEmail } : {}),
    ...(settings.alarmTopicArn ? { alarmTopicArn: settings.alarmTopicArn } : {}),
    ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
  });
  const web = new WebStack(app, 'CoursePlatformWeb', {
    env,
    description: 'Course platform: CloudFront, SPA bucket, HTTP API endpoint',
    webConfig: {
      Region: data.region,
      UserPoolId: data.userPool.userPoolId,
      UserPoolClientId: data.userPoolClient.userPoolClientId,
    },
    ...(settings.domainName && settings.certificateArn
      ? { domain: { name: settings.domainName, certificateArn: settings.certificateArn } }
      : {}),
    ...(options.distDir ? { distDir: options.distDir } : {}),
    ...(edge ? { webAclArn: edge.firewall.arn } : {}),
    ...(settings.apiOrigin ? { apiOrigin: settings.apiOrigin } : {}),
    filesOrigin: data.files.origin,
  });
  const api = new ApiStack(app, 'CoursePlatformApi', {
    env,
    description: 'Course platform: API stage, authorizer, routes and their functions',
    table: data.table,
    userPool: data.userPool,
    userPoolClient: data.userPoolClient,
    secretsKey: data.secretsKey,
    certificateKey: data.certificateKey,
    files: { bucketName: data.files.bucket.bucketName, bucketArn: data.filesBucketArn },
    httpApi: web.httpApi,
    edge: web.edge,
    appOrigin: web.appOrigin,
    customDomains: web.customDomains,
    settings,
    ...(options.routes ? { routes: options.routes } : {}),
  });
  const jobs = new JobsStack(app, 'CoursePlatformJobs', {
    env,
    description: 'Course platform: scheduled jobs',
    platform: api.platform,
    ...(settings.alarmTopicArn ? { alarmTopicArn: settings.alarmTopicArn } : {}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
  });
  return { data, edge, web, api, jobs };
};

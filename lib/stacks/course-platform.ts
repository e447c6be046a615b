import type { App, Environment } from 'aws-cdk-lib';
import type { ApiRoute } from '../constructs/api-routes.ts';
import { ApiStack } from './api-stack.ts';
import { DataStack } from './data-stack.ts';
import type { DeploySettings } from './deploy-settings.ts';
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
 * The four stacks and what flows between them, in deployment order:
 * Data (table, pool, key) -> Web (distribution, bucket, empty HTTP API) -> Api (routes, functions) -> Jobs.
 */
export const createCoursePlatform = (app: App, options: CoursePlatformOptions) => {
  const { settings, env } = options;
  const data = new DataStack(app, 'CoursePlatformData', {
    env,
    description: 'Course platform: table, user pool and its triggers, secrets key (stateful)',
    ...(settings.appOrigin ? { appOrigin: settings.appOrigin } : {}),
    ...(settings.fromEmail ? { fromEmail: settings.fromEmail } : {}),
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
  });
  const api = new ApiStack(app, 'CoursePlatformApi', {
    env,
    description: 'Course platform: API stage, authorizer, routes and their functions',
    table: data.table,
    userPool: data.userPool,
    userPoolClient: data.userPoolClient,
    secretsKey: data.secretsKey,
    httpApi: web.httpApi,
    appOrigin: web.appOrigin,
    settings,
    ...(options.routes ? { routes: options.routes } : {}),
  });
  const jobs = new JobsStack(app, 'CoursePlatformJobs', {
    env,
    description: 'Course platform: scheduled jobs',
    platform: api.platform,
    ...(options.jobs ? { jobs: options.jobs } : {}),
  });
  return { data, web, api, jobs };
};

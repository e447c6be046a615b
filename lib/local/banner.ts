import { JOB_QUEUE_MAX_RECEIVE_COUNT } from '../constructs/job-queue-names.ts';
import type { LocalCloud } from './cloud.ts';
import { localRetryPolicy } from './dead-letters/async-invoker.ts';
import type { DemoPlan } from './seed.ts';

const demoPlan: Record<DemoPlan, string> = {
  pro: 'on the Pro plan, selling courses: sales, a coupon, an affiliate, a team licence',
  existing: 'keeps the plan it has from an earlier run',
  'real-stripe': 'no plan: real Stripe, subscribe from the dashboard',
  failed: 'its Pro plan could not be seeded: see the [seed] warning above',
};

/** What a developer needs after `npm start`: where things are and how to sign in. */
export const banner = (
  cloud: Pick<LocalCloud, 'outputs' | 'mailViewerUrl' | 'demoPlan'>,
  opts: { web: boolean; seeded: boolean; dataDir: string },
): string => {
  const o = cloud.outputs;
  const lines = [
    '',
    'The platform is running locally.',
    '',
    ...(opts.web ? [`  Web app          ${o.WebUrl}`] : ['  Web app          (not started)']),
    `  API              ${o.ApiUrl}/api/health`,
    `  Published pages  ${o.PagesUrl}/p/<slug>`,
    `  Mail viewer      ${cloud.mailViewerUrl}`,
    `  Stripe stand-in  ${o.StripeApiUrl}`,
    `  Bedrock stand-in ${o.BedrockEndpoint}`,
    `  S3 emulator      ${o.FilesEndpoint} (bucket ${o.FilesBucket}, s3rver)`,
    `  SQS stand-in     ${o.SqsEndpoint} (the sliced jobs' queues, in memory: a restart drops queued slices)`,
    `  Secrets stand-in ${o.SecretsEndpoint} (the Parameters and Secrets Lambda Extension's API)`,
    `  Cognito          ${o.CognitoEndpoint} (pool ${o.UserPoolId}, confirmation codes are 123456)`,
    `  DynamoDB         ${o.DynamoDbEndpoint} (table ${o.TableName})`,
    '',
    ...(opts.seeded
      ? [
          '  Seeded accounts',
          `    admin        ${o.AdminEmail} / ${o.AdminPassword}`,
          `    creator      ${o.DemoCreatorEmail} / ${o.DemoCreatorPassword} (${demoPlan[cloud.demoPlan ?? 'pro']})`,
          `    new creator  ${o.DemoNewCreatorEmail} / ${o.DemoNewCreatorPassword} (no plan yet: sees the plan picker)`,
          `    leader       ${o.DemoLeaderEmail} / ${o.DemoLeaderPassword} (the demo creator's team licence, three members)`,
          `    learner      ${o.DemoLearnerEmail} / ${o.DemoLearnerPassword} (one of the demo creator's 12 learners, same password)`,
          '',
        ]
      : []),
    `  Data in ${opts.dataDir}/ (outputs.json lists every endpoint); run one handler with`,
    '    npm run invoke -- <function> events/<file>.json',
    `  Failed job runs land, after ${localRetryPolicy.retries} retries, in ${opts.dataDir}/dead-letters/jobs.jsonl; replay them with`,
    '    npm run redrive -- jobs [--dry-run]',
    `  A job slice failed on its ${JOB_QUEUE_MAX_RECEIVE_COUNT} receives lands in ${opts.dataDir}/dead-letters/job-slices.jsonl (npm run redrive -- job-slices)`,
    '  Press Ctrl-C to stop everything.',
    '',
  ];
  return lines.join('\n');
};

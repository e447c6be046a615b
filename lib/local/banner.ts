import type { LocalCloud } from './cloud.ts';

/** What a developer needs after `npm start`: where things are and how to sign in. */
export const banner = (
  cloud: Pick<LocalCloud, 'outputs' | 'mailViewerUrl'>,
  opts: { web: boolean; seeded: boolean; dataDir: string },
): string => {
  const o = cloud.outputs;
  const lines = [
    '',
    'The platform is running locally.',
    '',
    ...(opts.web ? [`  Web app          ${o.WebUrl}`] : ['  Web app          (not started)']),
    `  API              ${o.ApiUrl}/api/health`,
    `  Mail viewer      ${cloud.mailViewerUrl}`,
    `  Stripe stand-in  ${o.StripeApiUrl}`,
    `  Bedrock stand-in ${o.BedrockEndpoint}`,
    `  Cognito          ${o.CognitoEndpoint} (pool ${o.UserPoolId}, confirmation codes are 123456)`,
    `  DynamoDB         ${o.DynamoDbEndpoint} (table ${o.TableName})`,
    '',
    ...(opts.seeded
      ? [
          '  Seeded accounts',
          `    admin    ${o.AdminEmail} / ${o.AdminPassword}`,
          `    creator  ${o.DemoCreatorEmail} / ${o.DemoCreatorPassword}`,
          '',
        ]
      : []),
    `  Data in ${opts.dataDir}/ (outputs.json lists every endpoint); run one handler with`,
    '    npm run invoke -- <function> events/<file>.json',
    '  Press Ctrl-C to stop everything.',
    '',
  ];
  return lines.join('\n');
};

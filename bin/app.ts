import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { createCoursePlatform } from '../lib/stacks/course-platform.ts';
import { readDeploySettings } from '../lib/stacks/deploy-settings.ts';

// Wiring only: the stacks are in lib/stacks, their pieces in lib/constructs.
const app = new App();
createCoursePlatform(app, {
  settings: readDeploySettings(app),
  env: { account: process.env['CDK_DEFAULT_ACCOUNT'], region: process.env['CDK_DEFAULT_REGION'] },
});
// cdk-nag's AwsSolutions pack: any unacknowledged finding fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

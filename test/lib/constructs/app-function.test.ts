import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.ts';
import { AppFunction } from '#lib/constructs/app-function.ts';

const getMe = routes.find((r) => r.name === 'get-me')!;
const leaderSettings = routes.find((r) => r.name === 'leader-settings')!;

describe('AppFunction', () => {
  // The one test that bundles for real (bin/bundle-function.ts, as `cdk synth` runs it), two functions in one stack.
  it('bundles each handler into an ESM file of its own that carries the AWS SDK and loads in Node', async () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'app-function-bundle-')) });
    const stack = new Stack(app, 'Bundle');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    new AppFunction(stack, 'GetMe', { name: getMe.name, handler: getMe.handler, table: 'read', platform: { table } });
    new AppFunction(stack, 'LeaderSettings', { name: leaderSettings.name, handler: leaderSettings.handler, table: 'read', platform: { table } });

    const assembly = app.synth();
    const code = Template.fromStack(stack).findResources('AWS::Lambda::Function');
    const functions = Object.values(code) as { Properties: { Handler: string; Description: string; Code: { S3Key: unknown } } }[];
    expect(functions.map((fn) => fn.Properties.Handler)).toEqual(['index.handler', 'index.handler']);
    // CDK tells assets apart by their bundling options: each function its own bundle, not the first one's.
    expect(new Set(functions.map((fn) => JSON.stringify(fn.Properties.Code.S3Key))).size).toBe(2);

    const bundles = fs
      .readdirSync(assembly.directory)
      .map((entry) => path.join(assembly.directory, entry, 'index.mjs'))
      .filter((file) => fs.existsSync(file));
    expect(bundles).toHaveLength(2);
    const sources = bundles.map((file) => fs.readFileSync(file, 'utf8'));
    expect(sources.filter((source) => source.includes(JSON.stringify(`GET ${getMe.path}`)))).toHaveLength(1);
    expect(sources.filter((source) => source.includes(JSON.stringify(`${leaderSettings.method} ${leaderSettings.path}`)))).toHaveLength(1);
    for (const [i, source] of sources.entries()) {
      expect(source).not.toMatch(/from\s*["']@aws-sdk\//); // bundled, not left to the runtime
      expect(source).not.toMatch(/["']#(core|data|contracts|middleware|adapters|functions)\//); // aliases resolved
      // The SDK's default credential chain is aliased to the environment provider (lib/constructs/bundling.ts).
      const mapped = (JSON.parse(fs.readFileSync(`${bundles[i]}.map`, 'utf8')) as { sources: string[] }).sources.join('\n');
      expect(mapped).toContain('functions/adapters/lambda-credentials.ts');
      expect(mapped).not.toMatch(/credential-provider-(node|sso|ini|imds)\//);
      // X-Ray's SDK v2 patcher, the one importer of semver, is not reached in Lambda (lib/constructs/bundling.ts).
      expect(mapped).not.toMatch(/node_modules\/semver\//);
      expect(source).toContain("X-Ray's patchers/aws_p.js is not bundled into these functions");
      expect(mapped).not.toMatch(/aws-xray-sdk-core\/dist\/lib\/middleware\/sampling\/(rule_poller|service_connector)\.js/);
      const loaded = (await import(pathToFileURL(bundles[i]!).href)) as { handler: unknown };
      expect(typeof loaded.handler).toBe('function');
    }
    fs.rmSync(assembly.directory, { recursive: true, force: true });
  }, 120_000);

  it('refuses a capability its stack cannot back, instead of leaving a variable unset', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Missing');
    expect(
      () => new AppFunction(stack, 'Mailer', { name: 'mailer', handler: getMe.handler, uses: ['mail'], platform: {} }),
    ).toThrow(/mailer needs (MAIL_FROM|SES_CONFIGURATION_SET|APP_ORIGIN)/);
  });
});

describe('AppFunction sending to job queues (decision 0032)', () => {
  const synth = (queues: readonly string[] | undefined, uses: ('job-queues' | 'mail')[] = []) => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Starter', { env: { region: 'eu-west-2', account: '123456789012' } });
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    new AppFunction(stack, 'Rename', { name: 'rename-course', handler: getMe.handler, table: 'read-write', uses, ...(queues ? { queues } : {}), platform: { table } });
    return Template.fromStack(stack).toJSON() as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
  };
  const statementsOf = (template: ReturnType<typeof synth>) =>
    Object.values(template.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => (r.Properties['PolicyDocument'] as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement);
  const envOf = (template: ReturnType<typeof synth>) =>
    (Object.values(template.Resources).find((r) => r.Type === 'AWS::Lambda::Function')!.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables;

  it('gets the URL of each queue it names and may send to those queues only', () => {
    const template = synth(['course-changed', 'credit-reset']);
    // The URL suffix is the partition's (a token): resolved here as in the commercial partition.
    const joined = envOf(template)['JOB_QUEUE_URLS'] as { 'Fn::Join': [string, (string | { Ref: string })[]] };
    const urls = joined['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : part.Ref === 'AWS::URLSuffix' ? 'amazonaws.com' : `<${part.Ref}>`)).join('');
    expect(JSON.parse(urls)).toEqual({
      'course-changed': 'https://sqs.eu-west-2.amazonaws.com/123456789012/CoursePlatformJobs-course-changed.fifo',
      'credit-reset': 'https://sqs.eu-west-2.amazonaws.com/123456789012/CoursePlatformJobs-credit-reset.fifo',
    });
    const sends = statementsOf(template).filter((st) => [st.Action].flat().some((a) => a.startsWith('sqs:')));
    expect(sends).toEqual([
      expect.objectContaining({
        Action: 'sqs:SendMessage',
        Resource: [
          { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sqs:eu-west-2:123456789012:CoursePlatformJobs-course-changed.fifo']] },
          { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sqs:eu-west-2:123456789012:CoursePlatformJobs-credit-reset.fifo']] },
        ],
      }),
    ]);
  });

  it('gets neither without queues, and refuses the capability without naming a queue', () => {
    const template = synth(undefined);
    expect(envOf(template)['JOB_QUEUE_URLS']).toBeUndefined();
    expect(statementsOf(template).some((st) => [st.Action].flat().some((a) => a.startsWith('sqs:')))).toBe(false);
    expect(() => synth(undefined, ['job-queues'])).toThrow(/rename-course uses 'job-queues' but names no queue/);
  });
});

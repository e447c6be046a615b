import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { describe, expect, it } from 'vitest';
import { asyncRetries } from '#lib/constructs/async-retries.ts';
import { DeadLetterQueue } from '#lib/constructs/dead-letter-queue.ts';
import { resourcesOf, unacknowledgedNagFindings } from '../stacks/synth-platform.ts';

type Statement = { Action: string | string[]; Resource: unknown; Principal?: unknown };

const setup = () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'Queued', { env: { region: 'eu-west-2' } });
  const fn = new LambdaFunction(stack, 'Worker', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('export const handler = async () => ({});'),
  });
  return { stack, fn };
};

const statementsOf = (template: Template): Statement[] =>
  Object.values(resourcesOf(template, 'AWS::IAM::Policy')).flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: Statement[] }).Statement);

describe('a dead-letter queue', () => {
  it('is named after its stack and kind of work, keeps a message 14 days, with SQS-managed encryption and TLS only', () => {
    const { stack } = setup();
    const dlq = new DeadLetterQueue(stack, 'Jobs', { name: 'jobs' });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'Queued-jobs-dead-letters',
      MessageRetentionPeriod: 1_209_600,
      SqsManagedSseEnabled: true,
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: stack.getLogicalId(dlq.queue.node.defaultChild as never) }],
      PolicyDocument: Match.objectLike({ Statement: [Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })] }),
    });
  });

  it("receives a function's failed asynchronous invocations after its retries, and lets it send there and nothing more", () => {
    const { stack, fn } = setup();
    const dlq = new DeadLetterQueue(stack, 'Jobs', { name: 'jobs' });
    dlq.receiveFailedInvocations(fn, asyncRetries.jobs);
    const template = Template.fromStack(stack);
    const queueArn = { 'Fn::GetAtt': [stack.getLogicalId(dlq.queue.node.defaultChild as never), 'Arn'] };
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: stack.getLogicalId(fn.node.defaultChild as never) },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 3600,
      DestinationConfig: { OnFailure: { Destination: queueArn } },
    });
    expect(statementsOf(template).filter((s) => JSON.stringify(s.Resource) === JSON.stringify(queueArn))).toEqual([
      expect.objectContaining({ Action: 'sqs:SendMessage' }),
    ]);
  });

  it('with a key of its own: encrypted with it, usable by SNS for a subscription, and by a function for exactly the two actions a producer needs', () => {
    const { stack, fn } = setup();
    const key = new Key(stack, 'Key', { enableKeyRotation: true });
    const dlq = new DeadLetterQueue(stack, 'Feedback', { name: 'ses-feedback', encryptionKey: key });
    dlq.receiveFailedInvocations(fn, asyncRetries.sesFeedback);
    new Topic(stack, 'Topic').addSubscription(new LambdaSubscription(fn, { deadLetterQueue: dlq.forSnsSubscription() }));
    dlq.forSnsSubscription(); // a second subscription adds no second grant
    const template = Template.fromStack(stack);
    const keyId = stack.getLogicalId(key.node.defaultChild as never);
    template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'Queued-ses-feedback-dead-letters', KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    const keyPolicy = resourcesOf(template, 'AWS::KMS::Key')[keyId]!.Properties['KeyPolicy'] as { Statement: Statement[] };
    expect(keyPolicy.Statement.filter((s) => JSON.stringify(s.Principal).includes('sns.amazonaws.com'))).toEqual([
      expect.objectContaining({ Action: ['kms:GenerateDataKey*', 'kms:Decrypt'] }),
    ]);
    expect(statementsOf(template).filter((s) => JSON.stringify(s.Resource).includes(keyId))).toEqual([
      expect.objectContaining({ Action: ['kms:GenerateDataKey', 'kms:Decrypt'] }),
    ]);
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21_600 });
  });

  it('stays clean under cdk-nag, its own missing DLQ acknowledged with a reason', () => {
    const { stack, fn } = setup();
    new DeadLetterQueue(stack, 'Jobs', { name: 'jobs' }).receiveFailedInvocations(fn, asyncRetries.jobs);
    expect(unacknowledgedNagFindings(stack).filter((f) => f.includes('/Jobs/'))).toEqual([]);
  });
});

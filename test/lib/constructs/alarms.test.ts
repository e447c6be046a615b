import { App, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { Alarms, AlarmTopic, alarmTopicName } from '#lib/constructs/alarms.ts';
import { resourcesOf, unacknowledgedNagFindings } from '../stacks/synth-platform.ts';
import { METRICS_NAMESPACE } from '#adapters/metrics.ts';
import { SERVICE_NAME } from '#middleware/logger.ts';

type Props = Record<string, unknown>;

const setup = () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'Watched', { env: { region: 'eu-west-2' } });
  const topic = new Topic(stack, 'Ops');
  const alarms = new Alarms(stack, 'Alarms', { topic });
  return { app, stack, topic, alarms };
};

const lambda = (scope: Construct, id: string, timeout?: Duration) =>
  new LambdaFunction(scope, id, {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('export const handler = async () => ({});'),
    ...(timeout ? { timeout } : {}),
  });

/** Every alarm of a template, by its name. */
const alarmsOf = (template: Template): Record<string, Props> =>
  Object.fromEntries(
    Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).map((a) => [a.Properties['AlarmName'] as string, a.Properties]),
  );

const refTo = (stack: Stack, construct: Construct) => ({ Ref: stack.getLogicalId(construct.node.defaultChild as never) });

describe('the alarms construct', () => {
  it("alarms on a function's first error in 5 minutes, and on its p99 duration from 80% of its own timeout in 2 of 3 windows", () => {
    const { stack, alarms } = setup();
    const crud = lambda(stack, 'Crud', Duration.seconds(10));
    const heavy = lambda(stack, 'Heavy', Duration.seconds(30));
    const bare = lambda(stack, 'Bare'); // Lambda's default: 3 s
    alarms.watchFunction('get-me', crud);
    alarms.watchFunction('generate-page', heavy);
    alarms.watchFunction('bare', bare);
    const found = alarmsOf(Template.fromStack(stack));

    for (const [name, fn, limit] of [['get-me', crud, 8000], ['generate-page', heavy, 24_000], ['bare', bare, 2400]] as const) {
      const dimensions = [{ Name: 'FunctionName', Value: refTo(stack, fn) }];
      expect(found[`Watched-${name}-errors`], name).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Dimensions: dimensions,
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      expect(found[`Watched-${name}-duration`], name).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'Duration',
        Dimensions: dimensions,
        ExtendedStatistic: 'p99',
        Period: 300,
        Threshold: limit,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('raises the error threshold of a function whose errors are part of its answers', () => {
    const { stack, alarms } = setup();
    alarms.watchFunction('pre-sign-up', lambda(stack, 'PreSignUp'), { errorThreshold: 10 });
    expect(alarmsOf(Template.fromStack(stack))['Watched-pre-sign-up-errors']).toMatchObject({ Threshold: 10 });
  });

  it('sends the ALARM and the OK of every alarm to the one topic', () => {
    const { stack, topic, alarms } = setup();
    alarms.watchFunction('get-me', lambda(stack, 'Fn'));
    alarms.watchDeadLetterQueue('campaign-sender', new Queue(stack, 'Dlq'));
    alarms.watchHttpApi(new HttpApi(stack, 'Api'), new LogGroup(stack, 'AccessLogs'));
    alarms.watchLambdaThrottles();
    alarms.watchMailReputation();
    const found = Object.values(alarmsOf(Template.fromStack(stack)));
    expect(found).toHaveLength(8);
    for (const alarm of found) {
      expect(alarm['AlarmActions'], String(alarm['AlarmName'])).toEqual([refTo(stack, topic)]);
      expect(alarm['OKActions'], String(alarm['AlarmName'])).toEqual([refTo(stack, topic)]);
    }
  });

  it('alarms on a dead-letter queue from its first waiting message', () => {
    const { stack, alarms } = setup();
    const queue = new Queue(stack, 'CampaignDlq');
    alarms.watchDeadLetterQueue('campaign-sender', queue);
    expect(alarmsOf(Template.fromStack(stack))['Watched-campaign-sender-dead-letters']).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [stack.getLogicalId(queue.node.defaultChild as never), 'QueueName'] } }],
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it("alarms on the HTTP API's 5xx and 429 shares at 5% of windows with 50 requests or more, counting 429s from the access log", () => {
    const { stack, alarms } = setup();
    const api = new HttpApi(stack, 'Api');
    const accessLogs = new LogGroup(stack, 'AccessLogs');
    alarms.watchHttpApi(api, accessLogs);
    const template = Template.fromStack(stack);
    const found = alarmsOf(template);
    const apiDimension = [{ Name: 'ApiId', Value: refTo(stack, api) }];
    const requests = { Id: 'requests', MetricStat: { Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: apiDimension }, Period: 300, Stat: 'Sum' }, ReturnData: false };
    const expression = { Expression: 'IF(requests >= 50, 100 * FILL(answers, 0) / requests, 0)', ReturnData: true };

    expect(found['Watched-api-5xx-rate']).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(found['Watched-api-5xx-rate']!['Metrics']).toEqual(
      expect.arrayContaining([
        expect.objectContaining(expression),
        requests,
        { Id: 'answers', MetricStat: { Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: apiDimension }, Period: 300, Stat: 'Sum' }, ReturnData: false },
      ]),
    );

    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: refTo(stack, accessLogs),
      FilterPattern: '{ $.status = "429" }',
      MetricTransformations: [{ MetricNamespace: 'CoursePlatform/Api', MetricName: 'Status429', MetricValue: '1', DefaultValue: 0 }],
    });
    expect(found['Watched-api-429-rate']).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(found['Watched-api-429-rate']!['Metrics']).toEqual(
      expect.arrayContaining([
        expect.objectContaining(expression),
        requests,
        { Id: 'answers', MetricStat: { Metric: { Namespace: 'CoursePlatform/Api', MetricName: 'Status429' }, Period: 300, Stat: 'Sum' }, ReturnData: false },
      ]),
    );
  });

  it('alarms on throttled Lambda invocations of the whole account and region, from the first one', () => {
    const { stack, alarms } = setup();
    alarms.watchLambdaThrottles();
    const alarm = alarmsOf(Template.fromStack(stack))['Watched-lambda-throttles']!;
    expect(alarm).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Statistic: 'Sum', Period: 300, Threshold: 1 });
    expect(alarm['Dimensions']).toBeUndefined();
  });

  it("alarms on the account's SES bounce rate at 4% and complaint rate at 0.08%, before SES's 5% and 0.1% reviews", () => {
    const { stack, alarms } = setup();
    alarms.watchMailReputation();
    const found = alarmsOf(Template.fromStack(stack));
    const bounces = found['Watched-ses-bounce-rate']!;
    const complaints = found['Watched-ses-complaint-rate']!;
    const reputation = { Namespace: 'AWS/SES', Statistic: 'Maximum', Period: 3600, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'ignore' };
    expect(bounces).toMatchObject({ ...reputation, MetricName: 'Reputation.BounceRate', Threshold: 0.04 });
    expect(complaints).toMatchObject({ ...reputation, MetricName: 'Reputation.ComplaintRate', Threshold: 0.0008 });
    expect(bounces['Threshold']).toBeLessThan(0.05);
    expect(complaints['Threshold']).toBeLessThan(0.001);
    expect(bounces['Dimensions']).toBeUndefined(); // the account's figures, which SES reviews
  });

  it('alarms on the first paid course order that could not be fulfilled, from the business metric the Connect webhook records', () => {
    const { stack, alarms } = setup();
    alarms.watchUnfulfilledOrders();
    const alarm = alarmsOf(Template.fromStack(stack))['Watched-orders-unfulfilled']!;
    expect(alarm).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: 'OrderUnfulfilled', Statistic: 'Sum', Period: 300, Threshold: 1, Dimensions: [{ Name: 'service', Value: SERVICE_NAME }] });
  });

  it("puts a nested stack's function alarms in a nested stack of alarms beside it, naming the function through a parameter", () => {
    const { stack, alarms } = setup();
    const group = new NestedStack(stack, 'Group0');
    const fn = lambda(group, 'GetMe', Duration.seconds(10));
    alarms.watchFunction('get-me', fn);

    expect(Object.keys(resourcesOf(Template.fromStack(group), 'AWS::CloudWatch::Alarm'))).toEqual([]);
    const home = stack.node.findAll().find((c): c is NestedStack => c instanceof NestedStack && c !== group)!;
    expect(home.node.path).toBe('Watched/Alarms/Group0');
    const found = alarmsOf(Template.fromStack(home));
    expect(Object.keys(found).sort()).toEqual(['Watched-get-me-duration', 'Watched-get-me-errors']);
    expect(found['Watched-get-me-duration']).toMatchObject({ Threshold: 8000 });

    // Alarm dimension -> parameter of the alarms' nested stack -> output of the function's nested stack -> the function.
    const param = ((found['Watched-get-me-errors']!['Dimensions'] as { Value: { Ref: string } }[])[0]!.Value).Ref;
    const parent = Template.fromStack(stack);
    const homeResource = resourcesOf(parent, 'AWS::CloudFormation::Stack')[stack.getLogicalId(home.nestedStackResource as never)]!;
    const [groupResource, output] = ((homeResource.Properties['Parameters'] as Props)[param] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
    expect(groupResource).toBe(stack.getLogicalId(group.nestedStackResource as never));
    const outputs = Template.fromStack(group).toJSON()['Outputs'] as Record<string, { Value: unknown }>;
    expect(outputs[output.replace(/^Outputs\./, '')]!.Value).toEqual(refTo(group, fn));
  });

  it('refuses a function of another top-level stack: its alarms belong in that stack, without an export', () => {
    const { app, alarms } = setup();
    const other = new Stack(app, 'Other', { env: { region: 'eu-west-2' } });
    expect(() => alarms.watchFunction('elsewhere', lambda(other, 'Fn'))).toThrow(/in stack Other, not in Watched/);
  });
});

describe('the alarm topic', () => {
  const stack = () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
    return new Stack(app, 'Data', { env: { region: 'eu-west-2' } });
  };

  it('is encrypted with a rotating key CloudWatch may use, TLS only, and open to the alarms of this account only', () => {
    const data = stack();
    new AlarmTopic(data, 'AlarmTopic');
    const template = Template.fromStack(data);
    template.hasResourceProperties('AWS::SNS::Topic', { TopicName: alarmTopicName, KmsMasterKeyId: Match.anyValue() });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:GenerateDataKey*', 'kms:Decrypt'] }),
        ]),
      },
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: { 'aws:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('subscribes the email address it is given', () => {
    const data = stack();
    new AlarmTopic(data, 'AlarmTopic', { email: 'ops@example.com' });
    Template.fromStack(data).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('passes cdk-nag with the account-wide alarms on it', () => {
    const data = stack();
    const { topic } = new AlarmTopic(data, 'AlarmTopic', { email: 'ops@example.com' });
    const alarms = new Alarms(data, 'Alarms', { topic });
    alarms.watchLambdaThrottles();
    alarms.watchMailReputation();
    expect(unacknowledgedNagFindings(data)).toEqual([]);
  });
});

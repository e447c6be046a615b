import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { jobs } from '#functions/routes.ts';
import { resourcesOf, synthPlatform } from './synth-platform.ts';

const template = Template.fromStack(synthPlatform().jobs);

describe('the jobs stack', () => {
  it('schedules every job of routes.ts that has a schedule with its expression, invoking its own function', () => {
    const schedules = Object.values(resourcesOf(template, 'AWS::Scheduler::Schedule')).map((s) => s.Properties);
    const scheduled = jobs.filter((job) => 'schedule' in job);
    expect(scheduled.length).toBeGreaterThan(0);
    expect(schedules).toHaveLength(scheduled.length);
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    // A job started only by the routes (course-changed) has its function and no schedule.
    expect(Object.values(functions).some((f) => String(f.Properties['Description']).includes('functions/jobs/course-changed.ts'))).toBe(true);
    for (const job of scheduled) {
      const [functionId] = Object.entries(functions).find(([, f]) =>
        String(f.Properties['Description']).includes(`functions/${job.handler}.ts`),
      )!;
      const schedule = schedules.find((s) => JSON.stringify(s['Target']).includes(functionId))!;
      expect(schedule['ScheduleExpression']).toBe(job.schedule);
      expect(schedule['State']).toBe('ENABLED');
    }
  });

  it('lets the scheduler role invoke the job function and send to the jobs dead-letter queue, nothing else', () => {
    const schedulerPolicies = Object.entries(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith('SchedulerRoleForTarget'))
      .map(([, p]) => p.Properties['PolicyDocument'] as { Statement: { Action: unknown; Resource: unknown }[] });
    expect(schedulerPolicies.length).toBeGreaterThan(0);
    for (const doc of schedulerPolicies) {
      expect(doc.Statement.map((s) => s.Action).sort()).toEqual(['lambda:InvokeFunction', 'sqs:SendMessage']);
      expect(doc.Statement.find((s) => s.Action === 'sqs:SendMessage')!.Resource).toEqual(deadLetterQueueArn());
    }
  });
});

/** The jobs dead-letter queue's logical id (there is one queue in the stack). */
const deadLetterQueueId = (): string => {
  const queues = Object.entries(resourcesOf(template, 'AWS::SQS::Queue'));
  expect(queues).toHaveLength(1);
  return queues[0]![0];
};
const deadLetterQueueArn = () => ({ 'Fn::GetAtt': [deadLetterQueueId(), 'Arn'] });

describe('the jobs dead-letter queue', () => {
  it('is encrypted, TLS only, named after the stack and keeps a message 14 days', () => {
    const id = deadLetterQueueId();
    expect(resourcesOf(template, 'AWS::SQS::Queue')[id]!.Properties).toEqual({
      QueueName: 'CoursePlatformJobs-jobs-dead-letters',
      MessageRetentionPeriod: 14 * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: id }],
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      }),
    });
  });

  it("receives a schedule's failed hand-off to Lambda, after 2 retries within the hour", () => {
    const schedules = Object.values(resourcesOf(template, 'AWS::Scheduler::Schedule')).map((s) => s.Properties['Target'] as Record<string, unknown>);
    expect(schedules).toHaveLength(jobs.filter((job) => 'schedule' in job).length);
    for (const target of schedules) {
      expect(target['DeadLetterConfig']).toEqual({ Arn: deadLetterQueueArn() });
      expect(target['RetryPolicy']).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 });
    }
  });

  it("receives every job run that still fails after Lambda's 2 retries (or waited an hour), whether its schedule or the API started it", () => {
    const configs = Object.values(resourcesOf(template, 'AWS::Lambda::EventInvokeConfig')).map((c) => c.Properties);
    const functions = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'));
    expect(configs).toHaveLength(jobs.length);
    for (const job of jobs) {
      const [functionId] = functions.find(([, f]) => String(f.Properties['Description']).includes(`functions/${job.handler}.ts`))!;
      expect(configs.find((c) => JSON.stringify(c['FunctionName']) === JSON.stringify({ Ref: functionId })), job.name).toEqual({
        FunctionName: { Ref: functionId },
        Qualifier: '$LATEST',
        MaximumRetryAttempts: 2,
        MaximumEventAgeInSeconds: 3600,
        DestinationConfig: { OnFailure: { Destination: deadLetterQueueArn() } },
      });
    }
  });

  it('may be sent to by each job function, which may do nothing else with it', () => {
    const statements = Object.entries(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter(([id]) => !id.startsWith('SchedulerRoleForTarget'))
      .flatMap(([, p]) => (p.Properties['PolicyDocument'] as { Statement: { Action: unknown; Resource: unknown }[] }).Statement)
      .filter((st) => JSON.stringify(st.Resource).includes(deadLetterQueueId()));
    expect(statements).toHaveLength(jobs.length);
    for (const st of statements) expect(st).toMatchObject({ Action: 'sqs:SendMessage', Resource: deadLetterQueueArn() });
  });

  it('is watched by an alarm from its first message', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'CoursePlatformJobs-jobs-dead-letters',
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetterQueueId(), 'QueueName'] } }],
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });
});

import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { eventHandlers, jobs } from '#functions/routes.ts';
import { functionTimeoutMs } from '#functions/function-timeouts.ts';
import { JOB_QUEUE_MIN_CONCURRENCY, maxConcurrencyOf } from '#lib/constructs/job-queue-names.ts';
import { ACCOUNT_CONCURRENCY, reservedTotal, UNRESERVED_FLOOR } from '#lib/constructs/reserved-concurrency.ts';
import { resourcesOf, synthPlatform, unacknowledgedNagFindings } from './synth-platform.ts';

const platform = synthPlatform();
/** The jobs their schedule starts (a sliced job only routes start has none). */
const scheduled = (jobs as readonly { name: string; handler: string; schedule?: string }[]).filter((job) => job.schedule !== undefined);
const template = Template.fromStack(platform.jobs);

describe('the jobs stack', () => {
  it('schedules every job of routes.ts with its expression, invoking its own function', () => {
    const schedules = Object.values(resourcesOf(template, 'AWS::Scheduler::Schedule')).map((s) => s.Properties);
    expect(schedules).toHaveLength(scheduled.length);
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
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

/** A queue's logical id by its name (the jobs dead-letter queue, the sliced jobs' queues and theirs). */
const queueId = (name: string): string => {
  const queues = Object.entries(resourcesOf(template, 'AWS::SQS::Queue')).filter(([, q]) => q.Properties['QueueName'] === name);
  expect(queues).toHaveLength(1);
  return queues[0]![0];
};
/** The jobs dead-letter queue's logical id. */
const deadLetterQueueId = (): string => queueId('CoursePlatformJobs-jobs-dead-letters');
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
    expect(schedules).toHaveLength(scheduled.length);
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

describe("the sliced jobs' queues (decision 0032)", () => {
  const sliced = (jobs as readonly { name: string; handler: string; queue?: boolean; profile?: keyof typeof functionTimeoutMs }[]).filter((job) => job.queue);
  const functionIdOf = (job: string) =>
    Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).find(([, f]) => f.Properties['FunctionName'] === `CoursePlatformJobs-${job}`)![0];
  const sliceDeadLettersId = () => queueId('CoursePlatformJobs-job-slices-dead-letters.fifo');
  const statementsOf = (functionId: string) =>
    Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties['Roles']).includes(functionId.replace(/Function[0-9A-F]{8}$/, 'Role')))
      .flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement);

  it('gives each sliced job a FIFO queue: SSE-SQS, TLS only, visible again after 6x its timeout, to a FIFO dead-letter queue after 3 receives', () => {
    expect(sliced.map((job) => job.name)).toContain('credit-reset');
    for (const job of sliced) {
      const id = queueId(`CoursePlatformJobs-${job.name}.fifo`);
      expect(resourcesOf(template, 'AWS::SQS::Queue')[id]!.Properties).toEqual({
        QueueName: `CoursePlatformJobs-${job.name}.fifo`,
        FifoQueue: true,
        SqsManagedSseEnabled: true,
        VisibilityTimeout: (6 * functionTimeoutMs[job.profile ?? 'crud']) / 1000,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [sliceDeadLettersId(), 'Arn'] }, maxReceiveCount: 3 },
      });
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: Match.objectLike({
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        }),
      });
    }
    expect(resourcesOf(template, 'AWS::SQS::Queue')[sliceDeadLettersId()]!.Properties).toEqual({
      QueueName: 'CoursePlatformJobs-job-slices-dead-letters.fifo',
      FifoQueue: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
  });

  it("feeds each one to its job's function one slice at a time, reporting failed slices as partial batch failures", () => {
    // The queues' mappings (the table stream's has a starting position: the stream aggregator's, below).
    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((m) => m.Properties).filter((m) => m['StartingPosition'] === undefined);
    expect(mappings).toHaveLength(sliced.length);
    for (const job of sliced) {
      expect(mappings).toContainEqual({
        FunctionName: { Ref: functionIdOf(job.name) },
        EventSourceArn: { 'Fn::GetAtt': [queueId(`CoursePlatformJobs-${job.name}.fifo`), 'Arn'] },
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: maxConcurrencyOf(job.name) },
      });
    }
  });

  it("runs at most a few of a job's slices at once, so a run's lanes cannot take the account's concurrency", () => {
    const concurrency = Object.fromEntries(
      Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((m) => [
        JSON.stringify(m.Properties['EventSourceArn']),
        (m.Properties['ScalingConfig'] as { MaximumConcurrency?: number } | undefined)?.MaximumConcurrency,
      ]),
    );
    const of = (job: string) => concurrency[JSON.stringify({ 'Fn::GetAtt': [queueId(`CoursePlatformJobs-${job}.fifo`), 'Arn'] })];
    // The weekly report fans out a lane per page of 100 leaders: 5 of them at once, whatever the number of leaders.
    expect(of('leader-weekly-report')).toBe(5);
    // A job of one lane per run: Lambda's minimum.
    expect(of('credit-reset')).toBe(JOB_QUEUE_MIN_CONCURRENCY);
    for (const job of sliced) {
      expect(of(job.name), job.name).toBeGreaterThanOrEqual(JOB_QUEUE_MIN_CONCURRENCY);
      expect(of(job.name), job.name).toBeLessThanOrEqual(10);
    }
    // Every sliced job at its ceiling at once still leaves the API its unreserved pool.
    const jobsAtOnce = sliced.reduce((sum, job) => sum + of(job.name)!, 0);
    expect(jobsAtOnce).toBeLessThanOrEqual(ACCOUNT_CONCURRENCY - reservedTotal() - UNRESERVED_FLOOR);
  });

  it('lets a sliced job consume its own queue and send its continuations to it, and gives it the URL; other jobs get no queue', () => {
    for (const job of jobs as readonly { name: string; handler: string; queue?: boolean; queues?: readonly string[] }[]) {
      const functionId = functionIdOf(job.name);
      const sqs = statementsOf(functionId).filter((st) => [st.Action].flat().some((a) => a.startsWith('sqs:')) && !JSON.stringify(st.Resource).includes(deadLetterQueueId()));
      const env = (resourcesOf(template, 'AWS::Lambda::Function')[functionId]!.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables;
      if (!job.queue) {
        expect({ job: job.name, sqs, urls: env['JOB_QUEUE_URLS'] }).toEqual({ job: job.name, sqs: [], urls: undefined });
        continue;
      }
      const own = queueId(`CoursePlatformJobs-${job.name}.fifo`);
      expect(JSON.stringify(env['JOB_QUEUE_URLS'])).toContain(`CoursePlatformJobs-${job.name}.fifo`);
      const consume = sqs.find((st) => JSON.stringify(st.Resource) === JSON.stringify({ 'Fn::GetAtt': [own, 'Arn'] }))!;
      expect([consume.Action].flat().sort()).toEqual(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage']);
      const send = sqs.find((st) => [st.Action].flat().includes('sqs:SendMessage'))!;
      expect(send.Action).toBe('sqs:SendMessage');
      expect(JSON.stringify(send.Resource)).toContain(`:CoursePlatformJobs-${job.name}.fifo`);
      // Its own queue and those of the jobs whose runs it starts (`queues`: the session mail starts the mail sender's), no other.
      expect(JSON.stringify(send.Resource).match(/CoursePlatformJobs-/g)).toHaveLength(1 + (job.queues?.length ?? 0));
      for (const other of job.queues ?? []) expect(JSON.stringify(send.Resource)).toContain(`:CoursePlatformJobs-${other}.fifo`);
    }
  });

  it('alarms from the first slice in the dead-letter queue, and the stack stays cdk-nag clean', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'CoursePlatformJobs-job-slices-dead-letters',
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [sliceDeadLettersId(), 'QueueName'] } }],
      Threshold: 1,
    });
    expect(unacknowledgedNagFindings(platform.jobs)).toEqual([]);
  });
});

describe("the live sessions' due job (issue 30)", () => {
  const functions = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'));
  const [functionId, fn] = functions.find(([, f]) => f.Properties['FunctionName'] === 'CoursePlatformJobs-sessions-due')!;

  it('runs every minute with the heavy profile, reaching the providers with the creators\' sealed credentials', () => {
    const schedule = Object.values(resourcesOf(template, 'AWS::Scheduler::Schedule')).find((s) => JSON.stringify(s.Properties['Target']).includes(functionId))!;
    expect(schedule.Properties['ScheduleExpression']).toBe('rate(1 minute)');
    expect(fn.Properties['Timeout']).toBe(functionTimeoutMs.heavy / 1000);
    const env = Object.keys((fn.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables);
    expect(env).toEqual(expect.arrayContaining(['ZOOM_API_URL', 'GRAPH_API_URL', 'GOOGLE_CALENDAR_API_URL', 'SECRETS_KEY_ID', 'JOB_QUEUE_URLS']));
    const role = (fn.Properties['Role'] as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const statements = Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties['Roles']) === JSON.stringify([{ Ref: role }]))
      .flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: { Action: string | string[] }[] }).Statement);
    expect(statements.flatMap((st) => [st.Action].flat())).toContain('kms:Decrypt');
  });
});

describe('the stream aggregator (decision 0040)', () => {
  const functions = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'));
  const [aggregatorId] = functions.find(([, f]) => String(f.Properties['Description']).includes(`functions/${eventHandlers.streamAggregator.handler}.ts`))!;
  const streamMappings = () =>
    Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping'))
      .map((m) => m.Properties)
      .filter((m) => m['StartingPosition'] !== undefined && JSON.stringify(m['FunctionName']) === JSON.stringify({ Ref: aggregatorId }));

  it('reads the table\'s stream in batches of up to 1,000 within 2 s, one shard batch at a time, with the shard id in the event', () => {
    expect(streamMappings()).toHaveLength(1);
    expect(streamMappings()[0]).toMatchObject({
      FunctionName: { Ref: aggregatorId },
      EventSourceArn: expect.objectContaining({ 'Fn::ImportValue': expect.stringMatching(/TableStreamArn/) }),
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 1000,
      MaximumBatchingWindowInSeconds: 2,
      ParallelizationFactor: 1,
      // The window is what puts `shardId` in every event: the checkpoint is per shard.
      TumblingWindowInSeconds: 60,
    });
  });

  it('retries a failing batch bisected, from the first record it reports, 10 times, then describes it in its dead-letter queue, alarmed', () => {
    const queue = queueId('CoursePlatformJobs-streams-dead-letters');
    expect(streamMappings()[0]).toMatchObject({
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queue, 'Arn'] } } },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: 'CoursePlatformJobs-streams-dead-letters', Threshold: 1 });
  });

  it('may read the table\'s stream and send only to its own dead-letter queue', () => {
    const role = (functions.find(([id]) => id === aggregatorId)![1].Properties['Role'] as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const statements = Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties['Roles']) === JSON.stringify([{ Ref: role }]))
      .flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement);
    expect(statements).toContainEqual(expect.objectContaining({ Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'], Resource: { 'Fn::ImportValue': expect.stringMatching(/TableStreamArn/) } }));
    const sqs = statements.filter((st) => JSON.stringify(st.Action).includes('sqs:'));
    expect(sqs.map((st) => st.Resource)).toEqual([{ 'Fn::GetAtt': [queueId('CoursePlatformJobs-streams-dead-letters'), 'Arn'] }]);
  });
});

describe("the stream's second consumer: late enrolees invited to the sessions ahead (issue 30)", () => {
  const functions = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'));
  const [invitationsId, invitations] = functions.find(([, f]) => String(f.Properties['Description']).includes(`functions/${eventHandlers.reactions.handler}.ts`))!;
  const mapping = () =>
    Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping'))
      .map((m) => m.Properties)
      .find((m) => JSON.stringify(m['FunctionName']) === JSON.stringify({ Ref: invitationsId }))!;

  it("has its own event source on the table's stream, filtered to active enrolments, orders' statuses (webhook events, receipts), certificates and sessions inserted (at most 5 patterns)", () => {
    expect(mapping()).toMatchObject({
      EventSourceArn: expect.objectContaining({ 'Fn::ImportValue': expect.stringMatching(/TableStreamArn/) }),
      StartingPosition: 'LATEST',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
    });
    const patterns = (mapping()['FilterCriteria'] as { Filters: { Pattern: string }[] }).Filters.map((f) => JSON.parse(f.Pattern) as unknown);
    expect(patterns).toEqual([
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { sk: { S: [{ prefix: 'ENROLL#' }] } }, NewImage: { status: { S: ['active'] } } } },
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { sk: { S: ['ORDER'] } }, NewImage: { status: { S: ['paid', 'refunded', 'disputed'] } } } },
      { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: ['CERT', 'SESSION'] } } } },
    ]);
    expect(patterns.length).toBeLessThanOrEqual(5);
  });

  it('describes a batch it gave up on in the streams dead-letter queue, and is alarmed', () => {
    expect(mapping()).toMatchObject({ DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId('CoursePlatformJobs-streams-dead-letters'), 'Arn'] } } } });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: `CoursePlatformJobs-${eventHandlers.reactions.name}-errors` });
  });

  it('may start the mail sender and knows the sender address', () => {
    const env = (invitations.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(env['MAIL_FROM']).toBeDefined();
    expect(String(JSON.stringify(env['JOB_QUEUE_URLS']))).toContain('mail-sender');
  });
});

describe("the 'session-mail' job (issue 30)", () => {
  it('has its own FIFO queue and no schedule', () => {
    template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'CoursePlatformJobs-session-mail.fifo', FifoQueue: true });
    const schedules = Object.values(resourcesOf(template, 'AWS::Scheduler::Schedule')).map((s) => String(s.Properties['Description']));
    expect(schedules.filter((d) => d.startsWith('session-mail:'))).toEqual([]);
  });
});

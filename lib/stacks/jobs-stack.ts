import { Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Construct } from 'constructs';
import { eventHandlers, jobs as jobTable } from '#functions/routes.ts';
import { pascalCase } from '../constructs/api-routes.ts';
import { acknowledgeGeneratedWildcards } from '../constructs/nag.ts';
import { AppFunction, type FunctionPlatform, type Profile } from '../constructs/app-function.ts';
import { Alarms, alarmTopic } from '../constructs/alarms.ts';
import { asyncRetries, deadLetterQueues, deadLetterRetentionDays } from '../constructs/async-retries.ts';
import {
  JOB_QUEUE_MAX_RECEIVE_COUNT,
  JOB_QUEUE_VISIBILITY_FACTOR,
  jobQueueName,
  jobSlicesDeadLetterQueueName,
  maxConcurrencyOf,
} from '../constructs/job-queue-names.ts';
import { DeadLetterQueue } from '../constructs/dead-letter-queue.ts';
import type { Capability } from '../constructs/function-access.ts';

/** A job of functions/routes.ts as the cloud reads it (`uses` as for routes). */
export interface JobDef {
  readonly name: string;
  readonly handler: string;
  /** None: a sliced job only ever started by others (a route's `queues`), never by a schedule. */
  readonly schedule?: string;
  readonly uses?: readonly Capability[];
  /** 'heavy' for a job that works through a backlog (more memory and a 30 s timeout); default 'crud'. */
  readonly profile?: Profile;
  /** A job of the engine (decision 0032): its own FIFO queue and SQS event source; its schedule only starts a run. */
  readonly queue?: boolean;
  /** Other sliced jobs whose runs it starts. */
  readonly queues?: readonly string[];
}

export interface JobsStackProps extends StackProps {
  /** The same platform the API functions get (table, mail, ...); a job takes only what its `uses` ask for. */
  readonly platform: FunctionPlatform;
  /** Defaults to `jobs` of functions/routes.ts. */
  readonly jobs?: readonly JobDef[];
  /** The topic of the alarms (DeploySettings.alarmTopicArn); none: the one the data stack creates. */
  readonly alarmTopicArn?: string;
}

/**
 * The physical name of a job's function: fixed, so an API function can start it by name (and be allowed to) without
 * the API stack depending on this one, which depends on the API stack's platform.
 */
export const jobFunctionName = (job: string): string => `CoursePlatformJobs-${job}`;

/**
 * Stateless: one EventBridge Scheduler schedule per job, invoking its function through a role scoped to it; the jobs'
 * dead-letter queue, which receives both a schedule's failed hand-off and a job run that failed after Lambda's retries
 * (whoever started it: its schedule, or the API starting the campaign sender at once); and the alarms on each job's
 * function and on the queue (docs/decisions/0025-dead-letters.md).
 */
export class JobsStack extends Stack {
  readonly functions: Record<string, AppFunction> = {};
  readonly alarms: Alarms;
  readonly deadLetters: DeadLetterQueue;
  /** The sliced jobs' FIFO queues by job name, and their one FIFO dead-letter queue (none: no sliced job). */
  readonly jobQueues: Record<string, Queue> = {};
  readonly sliceDeadLetters: Queue | undefined;
  /** The stream aggregator and the dead-letter queue of the batches it gave up on (none: the platform has no table). */
  readonly streamAggregator: AppFunction | undefined;
  readonly streamDeadLetters: DeadLetterQueue | undefined;
  /** The stream's second consumer: late enrolees invited to the sessions ahead (issue 30). */
  readonly reactions: AppFunction | undefined;

  constructor(scope: Construct, id: string, props: JobsStackProps) {
    super(scope, id, props);
    const jobs: readonly JobDef[] = props.jobs ?? jobTable;
    this.alarms = new Alarms(this, 'Alarms', { topic: alarmTopic(this, 'AlarmTopic', props.alarmTopicArn) });
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', { name: deadLetterQueues.jobs });
    this.alarms.watchDeadLetterQueue(deadLetterQueues.jobs, this.deadLetters.queue);
    this.sliceDeadLetters = jobs.some((job) => job.queue) ? this.sliceDeadLetterQueue() : undefined;
    for (const job of jobs) {
      const name = pascalCase(job.name);
      const fn = new AppFunction(this, name, {
        name: job.name,
        functionName: jobFunctionName(job.name),
        handler: job.handler,
        table: 'read-write',
        uses: job.uses ?? [],
        ...(job.profile ? { profile: job.profile } : {}),
        // A sliced job sends its continuations to its own queue.
        queues: [...(job.queue ? [job.name] : []), ...(job.queues ?? [])],
        platform: props.platform,
      });
      this.functions[job.name] = fn;
      if (job.queue) this.sliceQueue(job, fn);
      this.alarms.watchFunction(job.name, fn.function);
      // A run that fails is retried by Lambda, then its invocation record (event, error, attempts) is a dead letter.
      this.deadLetters.receiveFailedInvocations(fn.function, asyncRetries.jobs);
      if (job.schedule === undefined) continue;
      new Schedule(this, `${name}Schedule`, {
        description: `${job.name}: ${job.schedule} (functions/routes.ts)`,
        schedule: ScheduleExpression.expression(job.schedule),
        // LambdaInvoke creates a role that may invoke this function (and send its failed hand-offs to the queue) only.
        target: new LambdaInvoke(fn.function, {
          retryAttempts: asyncRetries.schedule.retryAttempts,
          maxEventAge: Duration.seconds(asyncRetries.schedule.maxEventAgeSeconds),
          deadLetterQueue: this.deadLetters.queue,
        }),
      });
    }
    if (props.platform.table) {
      this.streamDeadLetters = new DeadLetterQueue(this, 'StreamDeadLetters', { name: deadLetterQueues.streams });
      this.alarms.watchDeadLetterQueue(deadLetterQueues.streams, this.streamDeadLetters.queue);
      this.streamAggregator = this.streamAggregatorOf(props.platform, this.streamDeadLetters);
      this.alarms.watchFunction(eventHandlers.streamAggregator.name, this.streamAggregator.function);
      this.reactions = this.reactionsOf(props.platform, this.streamDeadLetters);
      this.alarms.watchFunction(eventHandlers.reactions.name, this.reactions.function);
    }
    // LambdaInvoke puts its role at the stack's top level (one per target function).
    for (const role of this.node.children.filter((c) => c.node.id.startsWith('SchedulerRoleForTarget'))) {
      acknowledgeGeneratedWildcards(
        role,
        'Scheduler target role written by CDK: lambda:InvokeFunction on the job function and its versions (<arn>:*), and sqs:SendMessage on the jobs dead-letter queue, only.',
      );
    }
  }

  /**
   * The stream aggregator (docs/decisions/0040-stream-aggregator.md): the table's stream, a batch of up to 1,000 records
   * of one shard gathered for up to 2 s, so a flash sale's counters take one ADD per item per batch. Exactness is the
   * function's (a checkpoint per shard in the same transaction as the ADDs), so Lambda may retry freely: a failing batch
   * is bisected and retried from the first record the function reports (ReportBatchItemFailures), 10 times, then its
   * description goes to the streams dead-letter queue and the shard moves on (the alarm fires from the first). The
   * tumbling window is there for the shard id it puts in every event (the records do not carry it; the checkpoint is
   * per shard); its state is not used. From the trim horizon: a new aggregator counts the last 24 hours it missed.
   */
  private streamAggregatorOf(platform: FunctionPlatform, deadLetters: DeadLetterQueue): AppFunction {
    const fn = new AppFunction(this, pascalCase(eventHandlers.streamAggregator.name), { ...eventHandlers.streamAggregator, table: 'read-write', platform });
    fn.function.addEventSource(
      new DynamoEventSource(platform.table!, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 1000,
        maxBatchingWindow: Duration.seconds(2),
        tumblingWindow: Duration.seconds(60),
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        retryAttempts: 10,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(deadLetters.queue),
      }),
    );
    return fn;
  }

  /**
   * The stream's second and last consumer (functions/streams/reactions.ts, decision 0050): its own event source on the
   * table's stream, filtered to the records its reactions want (`eventHandlers.reactions.filters`: the function is
   * invoked for nothing else, and the aggregator's reading is untouched). From the latest position (a reaction is to
   * what happens from now: a new consumer has no past to catch up). Its reactions are idempotent, so a failing batch
   * is bisected and retried from the record it reports, 10 times, then described in the streams dead-letter queue
   * (alarmed), as the aggregator's.
   */
  private reactionsOf(platform: FunctionPlatform, deadLetters: DeadLetterQueue): AppFunction {
    const { filters: _filters, ...reactions } = eventHandlers.reactions;
    const fn = new AppFunction(this, pascalCase(reactions.name), { ...reactions, table: 'read-write', platform });
    fn.function.addEventSource(
      new DynamoEventSource(platform.table!, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        bisectBatchOnError: true,
        retryAttempts: 10,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(deadLetters.queue),
        filters: eventHandlers.reactions.filters.map((pattern) => FilterCriteria.filter(pattern)),
      }),
    );
    return fn;
  }

  /**
   * The FIFO dead-letter queue of every sliced job's queue (a FIFO queue's must be FIFO): encrypted, TLS only, 14 days,
   * named after the stack, alarmed from its first message. SQS itself moves a slice here after its last receive; an
   * operator re-drives it to its queue with SQS's redrive (StartMessageMoveTask) once the cause is fixed.
   */
  private sliceDeadLetterQueue(): Queue {
    const queue = new Queue(this, 'JobSliceDeadLetters', {
      queueName: jobSlicesDeadLetterQueueName(this.stackName),
      fifo: true,
      retentionPeriod: Duration.days(deadLetterRetentionDays),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the sliced jobs\' queues: nothing consumes it; an alarm fires from its first message and an operator re-drives it.',
    });
    this.alarms.watchDeadLetterQueue(deadLetterQueues.jobSlices, queue);
    return queue;
  }

  /**
   * A sliced job's own FIFO queue (decision 0032): one message per slice, its lane the message group, deduplicated by the
   * slice's identity; visible again 6x the function's timeout after a failed receive, to the dead-letter queue after the
   * third. The function consumes it one message at a time, reporting failed slices as partial batch failures, and at
   * most `maxConcurrencyOf(job)` at once (job-queue-names.ts), so a run's lanes cannot take the account's concurrency.
   */
  private sliceQueue(job: JobDef, fn: AppFunction): void {
    const timeout = fn.function.timeout ?? Duration.seconds(3);
    const queue = new Queue(this, `${pascalCase(job.name)}Queue`, {
      queueName: jobQueueName(job.name),
      fifo: true,
      visibilityTimeout: Duration.seconds(timeout.toSeconds() * JOB_QUEUE_VISIBILITY_FACTOR),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.sliceDeadLetters!, maxReceiveCount: JOB_QUEUE_MAX_RECEIVE_COUNT },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.jobQueues[job.name] = queue;
    fn.function.addEventSource(new SqsEventSource(queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: maxConcurrencyOf(job.name) }));
  }
}

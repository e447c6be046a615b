import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Construct } from 'constructs';
import { jobs as jobTable } from '#functions/routes.ts';
import { pascalCase } from '../constructs/api-routes.ts';
import { acknowledgeGeneratedWildcards } from '../constructs/nag.ts';
import { AppFunction, type FunctionPlatform, type Profile } from '../constructs/app-function.ts';
import { Alarms, alarmTopic } from '../constructs/alarms.ts';
import { asyncRetries, deadLetterQueues } from '../constructs/async-retries.ts';
import { DeadLetterQueue } from '../constructs/dead-letter-queue.ts';
import type { Capability } from '../constructs/function-access.ts';

/** A job of functions/routes.ts as the cloud reads it (`uses` as for routes). */
export interface JobDef {
  readonly name: string;
  readonly handler: string;
  /** None: a sliced job only started by the functions that name it in `queues` (functions/routes.ts). */
  readonly schedule?: string;
  readonly uses?: readonly Capability[];
  /** 'heavy' for a job that works through a backlog (more memory and a 30 s timeout); default 'crud'. */
  readonly profile?: Profile;
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

  constructor(scope: Construct, id: string, props: JobsStackProps) {
    super(scope, id, props);
    const jobs: readonly JobDef[] = props.jobs ?? jobTable;
    this.alarms = new Alarms(this, 'Alarms', { topic: alarmTopic(this, 'AlarmTopic', props.alarmTopicArn) });
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', { name: deadLetterQueues.jobs });
    this.alarms.watchDeadLetterQueue(deadLetterQueues.jobs, this.deadLetters.queue);
    for (const job of jobs) {
      const name = pascalCase(job.name);
      const fn = new AppFunction(this, name, {
        name: job.name,
        functionName: jobFunctionName(job.name),
        handler: job.handler,
        table: 'read-write',
        uses: job.uses ?? [],
        ...(job.profile ? { profile: job.profile } : {}),
        platform: props.platform,
      });
      this.functions[job.name] = fn;
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
    // LambdaInvoke puts its role at the stack's top level (one per target function).
    for (const role of this.node.children.filter((c) => c.node.id.startsWith('SchedulerRoleForTarget'))) {
      acknowledgeGeneratedWildcards(
        role,
        'Scheduler target role written by CDK: lambda:InvokeFunction on the job function and its versions (<arn>:*), and sqs:SendMessage on the jobs dead-letter queue, only.',
      );
    }
  }
}

import { ArnFormat, Duration, NestedStack, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { pascalCase } from './api-routes.ts';

/**
 * The thresholds of every alarm, in one place (docs/decisions/0024-alarms.md says why each is what it is).
 * Rates of the API are percentages of its requests; SES's reputation rates are fractions, as SES publishes them.
 */
export const alarmThresholds = {
  /** Every rate and count below is over this window, unless it says otherwise. */
  period: Duration.minutes(5),
  /** An API rate alarm only looks at a window with at least this many requests: one failure at night is not 100%. */
  apiMinRequests: 50,
  /** 5xx answers, % of the API's requests. */
  api5xxPercent: 5,
  /** 429 answers (stage and route throttling, the app's own RATE_LIMITED), % of the API's requests. */
  api429Percent: 5,
  /** Throttled Lambda invocations, every function of the account and region (they share one concurrency pool). */
  lambdaThrottles: 1,
  /** Errors of one function (crash, timeout, out of memory: handled failures are answers, not errors). */
  functionErrors: 1,
  /** p99 duration of one function, as a share of its own timeout; over `durationPeriods`. */
  durationShareOfTimeout: 0.8,
  durationPeriods: { evaluate: 3, toAlarm: 2 },
  /** Messages waiting in a dead-letter queue: each one is a lost event. */
  deadLetters: 1,
  /** Paid course orders the platform could not fulfil (refunded at once): each one is a buyer who paid for nothing. */
  unfulfilledOrders: 1,
  /** SES reviews an account at 5% bounces and 0.1% complaints; these alarms fire before that, over an hour. */
  sesPeriod: Duration.hours(1),
  sesBounceRate: 0.04,
  sesComplaintRate: 0.0008,
} as const;

/** Where the functions' business metrics land (functions/adapters/metrics.ts; a test holds the two equal). */
export const businessMetrics = { namespace: 'CoursePlatform', service: 'course-platform' } as const;

/** Lambda's timeout when a function sets none. */
const lambdaDefaultTimeout = Duration.seconds(3);

/**
 * The fixed name of the topic the data stack creates when no `alarmTopicArn` is given: the stacks after it name the
 * topic by ARN (`alarmTopic`), so no stack exports it (as jobFunctionName does for the jobs).
 */
export const alarmTopicName = 'CoursePlatformAlarms';

/** The alarm topic as a stack after the data stack sees it: the one given in the settings, or the data stack's. */
export const alarmTopic = (scope: Construct, id: string, topicArn?: string): ITopic =>
  Topic.fromTopicArn(
    scope,
    id,
    topicArn ?? Stack.of(scope).formatArn({ service: 'sns', resource: alarmTopicName, arnFormat: ArnFormat.NO_RESOURCE_NAME }),
  );

export interface AlarmTopicProps {
  /** An address to subscribe (AWS sends it a confirmation email first). */
  readonly email?: string;
}

/**
 * The topic every alarm notifies when the operator names none: encrypted with a key of its own (CloudWatch may not
 * use the AWS-managed SNS key), TLS only, and publishable by CloudWatch alarms of this account only.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps = {}) {
    super(scope, id);
    const { account, region, partition } = Stack.of(this);
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    const key = new Key(this, 'Key', {
      description: 'CloudWatch alarm notifications (SNS topic encryption)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    key.grant(cloudWatch, 'kms:GenerateDataKey*', 'kms:Decrypt');
    this.topic = new Topic(this, 'Topic', {
      topicName: alarmTopicName,
      displayName: 'Course platform alarms',
      masterKey: key,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfThisAccount',
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${partition}:cloudwatch:${region}:${account}:alarm:*` },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }
}

export interface AlarmsProps {
  /** Every alarm sends its ALARM and its OK to this topic. */
  readonly topic: ITopic;
}

export interface WatchFunctionOptions {
  /**
   * Errors in 5 minutes that raise the alarm (default 1). Higher only for a function whose errors are part of its
   * contract, such as a Cognito trigger that refuses by throwing.
   */
  readonly errorThreshold?: number;
}

/**
 * The CloudWatch alarms of one stack, all notifying one topic (ALARM and OK). Each `watch...` method adds the alarms
 * of one thing; alarm names are `<stack>-<what>-<signal>`, so a notification says where to look.
 *
 * Alarms sit in the stack of what they watch, never across stacks (no exports): a function of a nested stack (the API
 * route groups) gets its alarms in a nested stack of their own beside it, so alarms never take room from the routes.
 */
export class Alarms extends Construct {
  readonly topic: ITopic;
  private readonly action: SnsAction;
  private readonly homes = new Map<Stack, Construct>();

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = props.topic;
    this.action = new SnsAction(props.topic);
  }

  /**
   * A function's Errors (any in 5 minutes) and its p99 Duration near its own timeout (80%, in 2 of 3 five-minute
   * windows: one slow cold start does not notify, a function that keeps running close to the limit does; reaching
   * the limit is an error, alarmed at once).
   */
  watchFunction(name: string, fn: LambdaFunction, options: WatchFunctionOptions = {}): void {
    const home = this.homeOf(fn);
    const id = pascalCase(name);
    const { period } = alarmThresholds;
    const timeout = fn.timeout ?? lambdaDefaultTimeout;
    this.alarm(home, `${id}Errors`, {
      name: `${name}-errors`,
      description: `${name}: a Lambda invocation failed (uncaught error, timeout or out of memory). Its log group has the stack trace.`,
      metric: fn.metricErrors({ period, statistic: Stats.SUM }),
      threshold: options.errorThreshold ?? alarmThresholds.functionErrors,
    });
    const limit = Math.round(timeout.toMilliseconds() * alarmThresholds.durationShareOfTimeout);
    this.alarm(home, `${id}Duration`, {
      name: `${name}-duration`,
      description: `${name}: p99 duration at or above ${limit} ms, ${alarmThresholds.durationShareOfTimeout * 100}% of its ${timeout.toSeconds()} s timeout.`,
      metric: fn.metricDuration({ period, statistic: Stats.p(99) }),
      threshold: limit,
      evaluationPeriods: alarmThresholds.durationPeriods.evaluate,
      datapointsToAlarm: alarmThresholds.durationPeriods.toAlarm,
    });
  }

  /**
   * The HTTP API's share of 5xx answers, and of 429 answers, in windows with enough requests to mean something.
   * HTTP APIs publish no throttling metric: the 429s are counted from the stage's JSON access log (`status`).
   */
  watchHttpApi(api: IHttpApi, accessLogs: ILogGroup): void {
    const { period, apiMinRequests } = alarmThresholds;
    const requests = api.metricCount({ period, statistic: Stats.SUM });
    const share = (label: string, answers: IMetric) =>
      new MathExpression({
        expression: `IF(requests >= ${apiMinRequests}, 100 * FILL(answers, 0) / requests, 0)`,
        usingMetrics: { requests, answers },
        period,
        label,
      });
    this.alarm(this, 'Api5xx', {
      name: 'api-5xx-rate',
      description: `HTTP API: ${alarmThresholds.api5xxPercent}% or more of the requests in 5 minutes answered 5xx (windows of ${apiMinRequests}+ requests). The access log's integrationError and the functions' logs say which route.`,
      metric: share('5xx, % of requests', api.metricServerError({ period, statistic: Stats.SUM })),
      threshold: alarmThresholds.api5xxPercent,
    });
    const throttled = new MetricFilter(this, 'Api429Filter', {
      logGroup: accessLogs,
      metricNamespace: 'CoursePlatform/Api',
      metricName: 'Status429',
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricValue: '1',
      defaultValue: 0,
    });
    this.alarm(this, 'Api429', {
      name: 'api-429-rate',
      description: `HTTP API: ${alarmThresholds.api429Percent}% or more of the requests in 5 minutes answered 429 (stage or route throttling, or RATE_LIMITED; windows of ${apiMinRequests}+ requests). The access log's routeKey says which route.`,
      metric: share('429, % of requests', throttled.metric({ period, statistic: Stats.SUM })),
      threshold: alarmThresholds.api429Percent,
    });
  }

  /**
   * Throttled invocations of any function of the account and region: they all draw on the one unreserved concurrency
   * pool (no function reserves any), so a throttle anywhere is the pool running out for every function.
   */
  watchLambdaThrottles(): void {
    this.alarm(this, 'LambdaThrottles', {
      name: 'lambda-throttles',
      description: 'Lambda throttled invocations in this account and region: concurrency is exhausted (see ConcurrentExecutions; ask for a higher quota).',
      metric: LambdaFunction.metricAllThrottles({ period: alarmThresholds.period, statistic: Stats.SUM }),
      threshold: alarmThresholds.lambdaThrottles,
    });
  }

  /** A dead-letter queue's depth: any message waiting is an event that was given up on. */
  watchDeadLetterQueue(name: string, queue: IQueue): void {
    this.alarm(this.homeOf(queue), `${pascalCase(name)}DeadLetters`, {
      name: `${name}-dead-letters`,
      description: `${name}: messages are waiting in the dead-letter queue (failed events). Read them, fix the cause, redrive.`,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: alarmThresholds.period, statistic: Stats.MAXIMUM }),
      threshold: alarmThresholds.deadLetters,
    });
  }

  /**
   * Paid course orders the platform could not fulfil and refunded at once (the Connect webhook's `OrderUnfulfilled`
   * business metric, in the embedded metric format of functions/adapters/metrics.ts: namespace `CoursePlatform`,
   * dimension `service`): any one is a buyer who paid and was refunded, or a fault worth a look.
   */
  watchUnfulfilledOrders(): void {
    this.alarm(this, 'OrdersUnfulfilled', {
      name: 'orders-unfulfilled',
      description: "Course orders were paid but could not be fulfilled, and were refunded at once. The stripe-connect-webhook log's error line 'paid course order could not be fulfilled' names each order and its reason; the creator's Sales list shows them as refunded.",
      metric: new Metric({ namespace: businessMetrics.namespace, metricName: 'OrderUnfulfilled', dimensionsMap: { service: businessMetrics.service }, period: alarmThresholds.period, statistic: Stats.SUM }),
      threshold: alarmThresholds.unfulfilledOrders,
    });
  }

  /**
   * The account's SES reputation (bounce and complaint rates, as SES computes them over its recent sending), before
   * SES's review thresholds. Between two published figures the alarm keeps its state (missing data is ignored).
   */
  watchMailReputation(): void {
    const reputation = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, period: alarmThresholds.sesPeriod, statistic: Stats.MAXIMUM });
    this.alarm(this, 'MailBounceRate', {
      name: 'ses-bounce-rate',
      description: `SES bounce rate at or above ${alarmThresholds.sesBounceRate * 100}% (SES reviews the account at 5%). Pause campaigns; the suppression list holds the bounced addresses.`,
      metric: reputation('Reputation.BounceRate'),
      threshold: alarmThresholds.sesBounceRate,
      missing: TreatMissingData.IGNORE,
    });
    this.alarm(this, 'MailComplaintRate', {
      name: 'ses-complaint-rate',
      description: `SES complaint rate at or above ${alarmThresholds.sesComplaintRate * 100}% (SES reviews the account at 0.1%). Pause campaigns; check who they went to and their unsubscribe links.`,
      metric: reputation('Reputation.ComplaintRate'),
      threshold: alarmThresholds.sesComplaintRate,
      missing: TreatMissingData.IGNORE,
    });
  }

  private alarm(
    scope: Construct,
    id: string,
    props: {
      name: string;
      description: string;
      metric: IMetric;
      threshold: number;
      evaluationPeriods?: number;
      datapointsToAlarm?: number;
      missing?: TreatMissingData;
    },
  ): Alarm {
    const alarm = new Alarm(scope, id, {
      alarmName: `${Stack.of(this).stackName}-${props.name}`,
      alarmDescription: props.description,
      metric: props.metric,
      threshold: props.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: props.evaluationPeriods ?? 1,
      datapointsToAlarm: props.datapointsToAlarm ?? 1,
      // No traffic, no invocations, an empty queue: nothing is wrong.
      treatMissingData: props.missing ?? TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    return alarm;
  }

  /**
   * Where the alarms of `target` go: this construct when it is in the same stack; for a nested stack of this stack
   * (an API route group), a nested stack of alarms beside it, made once; anything else would need an export.
   */
  private homeOf(target: Construct): Construct {
    const own = Stack.of(this);
    const stack = Stack.of(target);
    if (stack === own) return this;
    if (stack.nested && stack.nestedStackParent === own) {
      let home = this.homes.get(stack);
      if (!home) {
        const relative = stack.node.path.slice(own.node.path.length + 1);
        home = new NestedStack(this, pascalCase(relative), { description: `Course platform alarms of ${relative}` });
        this.homes.set(stack, home);
      }
      return home;
    }
    throw new Error(
      `${target.node.path} is in stack ${stack.stackName}, not in ${own.stackName} or one of its nested stacks: watch it from that stack's Alarms`,
    );
  }
}

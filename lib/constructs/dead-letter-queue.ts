import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { DestinationConfig, DestinationOptions, IDestination, IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type AsyncRetryPolicy, type DeadLetterQueueName, deadLetterRetentionDays } from './async-retries.ts';

export interface DeadLetterQueueProps {
  /** The kind of work (lib/constructs/async-retries.ts `deadLetterQueues`): the queue is `<stack>-<name>-dead-letters`. */
  readonly name: DeadLetterQueueName;
  /**
   * A customer managed key, for a queue that SNS writes to (SNS documents that an encrypted subscription DLQ needs one
   * whose policy admits it). None: SQS-managed encryption (SSE-SQS), which any sender allowed `sqs:SendMessage` can
   * use with no KMS grant.
   */
  readonly encryptionKey?: IKey;
}

/**
 * The dead-letter queue of one kind of asynchronous work: a standard SQS queue, encrypted, TLS only, keeping each
 * message 14 days, with a fixed name (`<stack>-<name>-dead-letters`, like its alarm) so that an operator and the re-drive
 * (docs/faults.md, "Dead letters and re-drive") find it without reading the stack. Senders are wired by the methods here
 * and by the Scheduler target's and the SNS subscription's own `deadLetterQueue`.
 */
export class DeadLetterQueue extends Construct {
  readonly name: DeadLetterQueueName;
  readonly queue: Queue;
  private readonly key: IKey | undefined;
  private snsAllowed = false;

  constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id);
    this.name = props.name;
    this.key = props.encryptionKey;
    this.queue = new Queue(this, 'Queue', {
      queueName: deadLetterQueueName(Stack.of(this).stackName, props.name),
      retentionPeriod: Duration.days(deadLetterRetentionDays),
      enforceSSL: true,
      ...(props.encryptionKey
        ? { encryption: QueueEncryption.KMS, encryptionMasterKey: props.encryptionKey }
        : { encryption: QueueEncryption.SQS_MANAGED }),
      // Stateless stacks: re-drive or read what waits before destroying one.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue (of Lambda asynchronous invocations, EventBridge Scheduler or an SNS subscription, which cdk-nag does not recognise as sources). Nothing consumes it, so nothing can fail to and need a queue of its own: messages wait 14 days, an alarm fires from the first, and the re-drive deletes one only once it succeeded.',
    });
  }

  /**
   * Lambda's asynchronous invocations of `fn` (by a schedule, an `InvocationType: Event` invoke or SNS): retried
   * `retryAttempts` times within `maxEventAgeSeconds`, then Lambda puts the invocation record here (the event as
   * `requestPayload`, the error as `responsePayload`, the attempts in `requestContext`). The function's role may send
   * to this queue and nothing else of it.
   */
  receiveFailedInvocations(fn: IFunction, policy: AsyncRetryPolicy): void {
    fn.configureAsyncInvoke({
      retryAttempts: policy.retryAttempts,
      maxEventAge: Duration.seconds(policy.maxEventAgeSeconds),
      onFailure: new DeadLetterDestination(this),
    });
  }

  /** The queue for an SNS subscription's `deadLetterQueue`: SNS may then use its key (the subscription adds the queue policy). */
  forSnsSubscription(): Queue {
    if (this.key && !this.snsAllowed) {
      this.key.grant(new ServicePrincipal('sns.amazonaws.com'), 'kms:GenerateDataKey*', 'kms:Decrypt');
      this.snsAllowed = true;
    }
    return this.queue;
  }

  /**
   * `sqs:SendMessage` on this queue, and the two KMS actions a producer needs on its key, if it has one: exactly these
   * (the SQS destination of aws-lambda-destinations would add GetQueueUrl, GetQueueAttributes and `kms:*` wildcards).
   */
  grantSend(grantee: IGrantable): void {
    this.queue.grant(grantee, 'sqs:SendMessage');
    // Only for this queue's messages: SQS asks KMS with the queue's ARN as encryption context.
    if (this.key) {
      grantee.grantPrincipal.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
          resources: [this.key.keyArn],
          conditions: { StringEquals: { 'kms:EncryptionContext:aws:sqs:arn': this.queue.queueArn } },
        }),
      );
    }
  }
}

/** `<stack>-<name>-dead-letters`: the queue's name, and its alarm's (lib/constructs/alarms.ts `watchDeadLetterQueue`). */
export const deadLetterQueueName = (stackName: string, name: DeadLetterQueueName): string => `${stackName}-${name}-dead-letters`;

/** Lambda's on-failure destination of asynchronous invocations, onto a dead-letter queue with the narrowest grant. */
class DeadLetterDestination implements IDestination {
  constructor(private readonly deadLetters: DeadLetterQueue) {}

  bind(_scope: Construct, fn: IFunction, _options?: DestinationOptions): DestinationConfig {
    this.deadLetters.grantSend(fn);
    return { destination: this.deadLetters.queue.queueArn };
  }
}

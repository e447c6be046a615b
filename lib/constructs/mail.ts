import { RemovalPolicy } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { ConfigurationSet, EmailSendingEvent, EventDestination, SuppressionReasons } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/**
 * The SES configuration set every email is sent with (reputation metrics, account suppression of bounces and
 * complaints), and the topic it publishes bounces and complaints to, for the platform's own suppression list (the
 * ses-feedback function). The topic is encrypted with a key of its own: SES may not use the AWS-managed SNS key. The
 * same key encrypts the notifications' dead-letter queue (the api stack), which SNS writes to. The sending identity
 * (domain or address of MAIL_FROM) is verified by the operator, outside CDK.
 */
export class Mail extends Construct {
  readonly configurationSet: ConfigurationSet;
  readonly feedbackTopic: Topic;
  /** Encrypts the bounce and complaint notifications, on the topic and in their dead-letter queue. */
  readonly feedbackKey: IKey;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    const key = new Key(this, 'FeedbackKey', {
      description: 'SES bounce and complaint notifications (SNS topic encryption)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    key.grant(new ServicePrincipal('ses.amazonaws.com'), 'kms:GenerateDataKey*', 'kms:Decrypt');
    this.feedbackKey = key;
    this.feedbackTopic = new Topic(this, 'FeedbackTopic', { masterKey: key, enforceSSL: true });
    this.configurationSet.addEventDestination('Feedback', {
      destination: EventDestination.snsTopic(this.feedbackTopic),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
  }
}

import { ConfigurationSet, SuppressionReasons } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/**
 * The SES configuration set every email is sent with (reputation metrics, account suppression of bounces and
 * complaints). The sending identity (domain or address of MAIL_FROM) is verified by the operator, outside CDK.
 */
export class Mail extends Construct {
  readonly configurationSet: ConfigurationSet;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
  }
}

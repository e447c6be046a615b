import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/**
 * A distribution's access-log bucket (the app's and the published pages'): records, not build output, so kept when
 * the stack goes; ACLs on, as CloudFront standard logging needs; 90 days.
 */
export const accessLogBucket = (scope: Construct): Bucket => {
  const logs = new Bucket(scope, 'Logs', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.OBJECT_WRITER,
    lifecycleRules: [{ expiration: Duration.days(90) }],
    removalPolicy: RemovalPolicy.RETAIN,
  });
  Validations.of(logs).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'This is the access-log bucket itself; logging it into itself would loop.',
  });
  return logs;
};

import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { type CfnKey, Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { triggers } from '#functions/routes.ts';
import { Alarms, AlarmTopic, alarmTopic } from '../constructs/alarms.ts';
import { AppTable } from '../constructs/app-table.ts';
import { CourseFiles } from '../constructs/course-files.ts';
import { UserDirectory } from '../constructs/user-directory.ts';

export interface DataStackProps extends StackProps {
  /**
   * Origin of the links in the pool's emails and the one origin the files bucket's CORS admits
   * (DeploySettings.appOrigin); none: reset emails carry the code only and browsers cannot upload files.
   */
  readonly appOrigin?: string;
  /** The pool's SES sender (DeploySettings.fromEmail); none: Cognito's default sender. */
  readonly fromEmail?: string;
  /** An existing topic for every alarm (DeploySettings.alarmTopicArn); none: this stack creates the alarm topic. */
  readonly alarmTopicArn?: string;
  /** Subscribed to the alarm topic this stack creates (DeploySettings.alarmEmail). */
  readonly alarmEmail?: string;
}

/**
 * Stateful resources: the table, the user pool (with its triggers, which it cannot exist without), the KMS key
 * for integration secrets and the course files bucket. Everything here is retained on deletion and keeps a fixed
 * logical id. Also, as the first stack deployed, the topic every alarm notifies (unless the operator names one; its
 * email subscription, once confirmed, outlives the stateless stacks), and the alarms on the pool's triggers.
 */
export class DataStack extends Stack {
  readonly table: Table;
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  readonly secretsKey: Key;
  /** Signs certificates and their status lists (ES256): the private key never leaves KMS (decision 0030). */
  readonly certificateKey: Key;
  readonly files: CourseFiles;
  /**
   * The files bucket's ARN for other stacks, as an export of fixed name: the functions' grant on `<arn>/courses/*`
   * then reads the same before and after synthesis, so its cdk-nag acknowledgement (a wildcard under the prefix,
   * lib/constructs/app-function.ts) names it exactly, rather than a generated export name.
   */
  readonly filesBucketArn: string;
  readonly alarmTopic: ITopic;
  readonly alarms: Alarms;

  constructor(scope: Construct, id: string, props: DataStackProps = {}) {
    super(scope, id, props);

    this.table = new AppTable(this, 'Data').table;
    const directory = new UserDirectory(this, 'Users', {
      table: this.table,
      ...(props.appOrigin ? { appOrigin: props.appOrigin } : {}),
      ...(props.fromEmail ? { fromEmail: props.fromEmail } : {}),
    });
    this.userPool = directory.userPool;
    this.userPoolClient = directory.client;

    this.alarmTopic = props.alarmTopicArn
      ? alarmTopic(this, 'AlarmTopic', props.alarmTopicArn)
      : new AlarmTopic(this, 'AlarmTopic', props.alarmEmail ? { email: props.alarmEmail } : {}).topic;
    this.alarms = new Alarms(this, 'Alarms', { topic: this.alarmTopic });
    // A refused sign-up is thrown (Cognito shows its message), so a few errors are the trigger doing its job.
    this.alarms.watchFunction(triggers.preSignUp.name, directory.preSignUp.function, { errorThreshold: 10 });
    this.alarms.watchFunction(triggers.postConfirmation.name, directory.postConfirmation.function);
    if (directory.customMessage) this.alarms.watchFunction(triggers.customMessage.name, directory.customMessage.function);

    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Encrypts integration secrets that creators store (envelope encryption by the functions)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    (this.secretsKey.node.defaultChild as CfnKey).overrideLogicalId('SecretsKey');

    // Asymmetric keys cannot rotate in KMS: a new key is a new `kid`, published beside the old (decision 0030).
    this.certificateKey = new Key(this, 'CertificateSigningKey', {
      description: 'Signs certificates (Open Badges 3.0 VC-JWTs, ES256) and their revocation status lists',
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    (this.certificateKey.node.defaultChild as CfnKey).overrideLogicalId('CertificateSigningKey');

    this.files = new CourseFiles(this, 'Files', props.appOrigin ? { appOrigin: props.appOrigin } : {});
    this.filesBucketArn = this.exportValue(this.files.bucket.bucketArn, { name: `${this.stackName}-FilesBucketArn` });

    // Output names match the keys of .local/outputs.json.
    new CfnOutput(this, 'Region', { value: this.region });
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.userPoolClient.userPoolClientId });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'SecretsKeyArn', { value: this.secretsKey.keyArn });
    new CfnOutput(this, 'CertificateKeyArn', { value: this.certificateKey.keyArn });
    new CfnOutput(this, 'FilesBucket', { value: this.files.bucket.bucketName });
    new CfnOutput(this, 'FilesEndpoint', { value: this.files.origin, description: 'The course files bucket (private; presigned URLs only)' });
  }
}

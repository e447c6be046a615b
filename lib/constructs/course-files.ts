import { Annotations, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { accessLogBucket } from './access-logs.ts';

export interface CourseFilesProps {
  /**
   * The only origin a browser may upload from or read with (DeploySettings.appOrigin). The bucket lives in the data
   * stack, deployed before the distribution, so it cannot read the CloudFront URL (the same reason as the pool's reset
   * link). Unset: no CORS rule at all, so no browser can upload until the stack is redeployed with it (the synth warns).
   */
  readonly appOrigin?: string;
}

/**
 * The private bucket of course files (lesson videos and attachments; docs/decisions/0014-file-hosting.md). Nothing in
 * it is public: the browser PUTs parts and GETs objects only through short-lived presigned URLs the functions sign
 * (capability 'files', limited to `courses/*`). S3-managed encryption, TLS only, server access logs, retained with a
 * fixed logical id (learners' material outlives the stack), and abandoned multipart uploads cleaned after a day.
 */
export class CourseFiles extends Construct {
  readonly bucket: Bucket;
  /** https://<bucket>.s3.<region>.amazonaws.com: where presigned URLs point (CSP connect-src, output FilesEndpoint). */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: CourseFilesProps = {}) {
    super(scope, id);
    const logs = accessLogBucket(this);
    (logs.node.defaultChild as CfnBucket).overrideLogicalId('FilesAccessLogs');

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'files/',
      // Parts of an upload nobody completes (a closed tab, a dropped resume) cost storage until aborted.
      // Exports (capability 'exports') are links for a day: their objects go after it.
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }, { prefix: 'exports/', expiration: Duration.days(1) }],
      ...(props.appOrigin
        ? {
            cors: [
              {
                allowedOrigins: [props.appOrigin],
                allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
                allowedHeaders: ['content-type', 'content-length'],
                // The browser reads each part's ETag to complete the multipart upload.
                exposedHeaders: ['ETag'],
                maxAge: 3000,
              },
            ],
          }
        : {}),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    (this.bucket.node.defaultChild as CfnBucket).overrideLogicalId('FilesBucket');
    if (!props.appOrigin) {
      Annotations.of(this).addWarningV2(
        'course-platform:files-cors',
        'No appOrigin: the course files bucket has no CORS rule, so browsers cannot upload. Set -c appOrigin=<WebUrl> (or a custom domain) and redeploy.',
      );
    }
    this.origin = `https://${this.bucket.bucketName}.s3.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
  }
}

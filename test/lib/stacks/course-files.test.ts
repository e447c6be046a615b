import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef } from '#functions/routes.ts';
import { resourcesOf, synthPlatform, testRegion, unacknowledgedNagFindings, withNestedStacks } from './synth-platform.ts';

/**
 * The course files bucket (data stack), the 'files' capability (api stack) and the app's CSP (web stack). The routes
 * are two stand-ins on an existing handler, one using 'files' and one not, so the grant is checked on its own; the
 * api stack's own tests check the real route table.
 */
const appOrigin = 'https://d123.cloudfront.net';
const routes: readonly RouteDef[] = [
  { name: 'file-route', method: 'POST', path: '/api/file-route', handler: 'http/health', access: ['creator'], uses: ['files'] },
  { name: 'plain-route', method: 'POST', path: '/api/plain-route', handler: 'http/health', access: ['creator'] },
  { name: 'avatar-route', method: 'POST', path: '/api/avatar-route', handler: 'http/health', access: ['creator'], uses: ['avatars'] },
  { name: 'avatar-read-route', method: 'GET', path: '/api/avatar-read-route', handler: 'http/health', access: 'public', uses: ['avatars:read'] },
  { name: 'file-read-route', method: 'GET', path: '/api/file-read-route', handler: 'http/health', access: ['creator'], uses: ['files:read'] },
  { name: 'file-erase-route', method: 'POST', path: '/api/file-erase-route', handler: 'http/health', access: ['creator'], uses: ['files:erase-submissions'] },
];

type Props = Record<string, unknown>;
type Statement = { Action: string | string[]; Effect: string; Resource: unknown; Condition?: unknown; Principal?: unknown };

let platform: ReturnType<typeof synthPlatform>;
let data: Template;
let api: Template;
let web: Template;
beforeAll(() => {
  platform = synthPlatform({ routes, jobs: [], context: { appOrigin } });
  data = Template.fromStack(platform.data);
  api = withNestedStacks(platform.api);
  web = Template.fromStack(platform.web);
});

const filesBucket = (t: Template): Props => t.toJSON().Resources.FilesBucket as Props;
const functionOf = (t: Template, name: string): Props =>
  Object.values(resourcesOf(t, 'AWS::Lambda::Function')).find((f) => String(f.Properties['Description']).startsWith(`${name} (`))!.Properties;
const statementsOf = (t: Template, name: string): Statement[] => {
  const roleId = (functionOf(t, name)['Role'] as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
  return Object.values(resourcesOf(t, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties['Roles']).includes(roleId))
    .flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: Statement[] }).Statement);
};
const s3Statements = (t: Template, name: string) => statementsOf(t, name).filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));

/** The app's CSP with every token (an import from the data stack) shown as its JSON, so directives can be read. */
const appCsp = (t: Template): string[] => {
  const policy = Object.values(resourcesOf(t, 'AWS::CloudFront::ResponseHeadersPolicy'))
    .map((p) => p.Properties['ResponseHeadersPolicyConfig'] as { Comment: string; SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } } })
    .find((p) => p.Comment === 'Security headers for the SPA')!;
  const value = policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
  const text = typeof value === 'string' ? value : (value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('');
  return text.split('; ');
};

describe('the course files bucket', () => {
  it('is private: every public access blocked, no bucket policy granting anyone but over TLS', () => {
    expect(filesBucket(data)['Properties']).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    const policies = Object.values(resourcesOf(data, 'AWS::S3::BucketPolicy')).filter((p) => JSON.stringify(p.Properties['Bucket']) === JSON.stringify({ Ref: 'FilesBucket' }));
    const statements = policies.flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: Statement[] }).Statement);
    expect(statements.filter((s) => s.Effect === 'Allow')).toEqual([]);
  });

  it('is encrypted and refuses plain HTTP', () => {
    expect(filesBucket(data)['Properties']).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: 'FilesBucket' },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('admits browser uploads and reads from the app origin only, and lets it read each part\'s ETag', () => {
    expect(filesBucket(data)['Properties']).toMatchObject({
      CorsConfiguration: {
        CorsRules: [
          {
            AllowedOrigins: [appOrigin],
            AllowedMethods: ['PUT', 'GET', 'HEAD'],
            AllowedHeaders: ['content-type', 'content-length'],
            ExposedHeaders: ['ETag'],
          },
        ],
      },
    });
    expect(JSON.stringify(filesBucket(data)['Properties'])).not.toContain('"*"');
  });

  it('has no CORS rule at all, and says so, while the app origin is unknown', () => {
    const bare = synthPlatform({ routes, jobs: [] });
    const t = Template.fromStack(bare.data);
    expect(filesBucket(t)['Properties']).not.toHaveProperty('CorsConfiguration');
    Annotations.fromStack(bare.data).hasWarning('/CoursePlatformData/Files', Match.stringLikeRegexp('appOrigin'));
  });

  it('aborts abandoned multipart uploads after a day, expires exports after a day, logs access, and is retained under a fixed logical id', () => {
    expect(filesBucket(data)).toMatchObject({ Type: 'AWS::S3::Bucket', DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(filesBucket(data)['Properties']).toMatchObject({
      LifecycleConfiguration: {
        Rules: [
          { AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' },
          { Prefix: 'exports/', ExpirationInDays: 1, Status: 'Enabled' },
        ],
      },
      LoggingConfiguration: { DestinationBucketName: { Ref: 'FilesAccessLogs' }, LogFilePrefix: 'files/' },
    });
    expect(data.toJSON().Resources.FilesAccessLogs).toMatchObject({ Type: 'AWS::S3::Bucket', DeletionPolicy: 'Retain' });
  });

  it('outputs FilesEndpoint, the bucket\'s regional https origin, as outputs.json names it locally', () => {
    expect(data.toJSON().Outputs.FilesEndpoint.Value).toEqual({
      'Fn::Join': ['', ['https://', { Ref: 'FilesBucket' }, `.s3.${testRegion}.`, { Ref: 'AWS::URLSuffix' }]],
    });
    expect(data.toJSON().Outputs.FilesBucket.Value).toEqual({ Ref: 'FilesBucket' });
  });

  it('keeps the data, api and web stacks free of unacknowledged cdk-nag findings', () => {
    expect(unacknowledgedNagFindings(platform.data)).toEqual([]);
    expect(unacknowledgedNagFindings(platform.api)).toEqual([]);
    expect(unacknowledgedNagFindings(platform.web)).toEqual([]);
  });
});

describe("the 'files' capability", () => {
  it('lets a function put, get, delete and manage multipart uploads of objects under courses/ only', () => {
    const statements = s3Statements(api, 'file-route');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({
      Effect: 'Allow',
      Action: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
    });
    const resource = JSON.stringify(statements[0]!.Resource);
    expect(resource).toMatch(/FilesBucket.*\/courses\/\*"\]\]\}$/);
    expect(resource).not.toMatch(/"\/\*"|s3:\*/);
  });

  it('gives that function FILES_BUCKET, and no local endpoint', () => {
    const env = (functionOf(api, 'file-route')['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(env['FILES_BUCKET'])).toContain('FilesBucket');
    expect(env).not.toHaveProperty('FILES_ENDPOINT');
  });

  it("'files:read' lets a function (the data export's job) only get objects under courses/, with FILES_BUCKET", () => {
    const statements = s3Statements(api, 'file-read-route');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 's3:GetObject' });
    expect(JSON.stringify(statements[0]!.Resource)).toMatch(/FilesBucket.*\/courses\/\*"\]\]\}$/);
    const env = (functionOf(api, 'file-read-route')['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(env['FILES_BUCKET'])).toContain('FilesBucket');
  });

  it("'files:erase-submissions' lets a function (the account deletion's job) only delete handed-in files, never lesson files, with FILES_BUCKET", () => {
    const statements = s3Statements(api, 'file-erase-route');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 's3:DeleteObject' });
    expect(JSON.stringify(statements[0]!.Resource)).toMatch(/FilesBucket.*\/courses\/\*\/\*\/submissions\/\*"\]\]\}$/);
    const env = (functionOf(api, 'file-erase-route')['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(env['FILES_BUCKET'])).toContain('FilesBucket');
  });

  it('gives a function without it neither the grant nor the variable', () => {
    expect(s3Statements(api, 'plain-route')).toEqual([]);
    expect((functionOf(api, 'plain-route')['Environment'] as { Variables: Record<string, unknown> }).Variables).not.toHaveProperty('FILES_BUCKET');
  });
});

describe("the 'avatars' capabilities (the creators' pictures)", () => {
  it("let a function put, get and delete objects under avatars/ only, and nothing of the course files", () => {
    const statements = s3Statements(api, 'avatar-route');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'] });
    expect(JSON.stringify(statements[0]!.Resource)).toMatch(/FilesBucket.*\/avatars\/\*"\]\]\}$/);
    expect(JSON.stringify(statements[0]!.Resource)).not.toContain('courses/');
  });

  it("let a public page only read them (sign GETs), with FILES_BUCKET", () => {
    const statements = s3Statements(api, 'avatar-read-route');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 's3:GetObject' });
    expect(JSON.stringify(statements[0]!.Resource)).toMatch(/FilesBucket.*\/avatars\/\*"\]\]\}$/);
    const env = (functionOf(api, 'avatar-read-route')['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(env['FILES_BUCKET'])).toContain('FilesBucket');
  });
});

describe("the app's Content-Security-Policy", () => {
  it('lets the browser send upload parts to the files bucket, and to no other bucket', () => {
    const connect = appCsp(web).filter((d) => d.startsWith('connect-src'));
    expect(connect).toHaveLength(1);
    expect(connect[0]).toMatch(new RegExp(`^connect-src 'self' https://cognito-idp\\.${testRegion}\\.amazonaws\\.com https://\\{"Fn::ImportValue":"[^"]*FilesBucket[^"]*"\\}\\.s3\\.${testRegion}\\.`));
    expect(connect[0]).not.toContain('*');
    expect(appCsp(web)).toContain('media-src https:');
  });
});

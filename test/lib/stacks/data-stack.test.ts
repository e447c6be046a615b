import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableSchema } from '#data/table-schema.ts';
import { allRoles, triggers } from '#functions/routes.ts';
import { resourcesOf, synthPlatform, unacknowledgedNagFindings } from './synth-platform.ts';

let template: Template;
beforeAll(() => {
  template = Template.fromStack(synthPlatform().data);
});

describe('the data stack', () => {
  it('builds the one table from table-schema.ts: string keys, every GSI projecting ALL, TTL, on demand, PITR, a stream of both images', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const expectedAttributes = [
      tableSchema.partitionKey,
      tableSchema.sortKey,
      ...tableSchema.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
    ].map((name) => ({ AttributeName: name, AttributeType: 'S' }));
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayEquals(expectedAttributes),
      GlobalSecondaryIndexes: tableSchema.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      TimeToLiveSpecification: { AttributeName: tableSchema.ttlAttribute, Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      // The stream aggregator's input (decision 0040).
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('retains the stateful resources under fixed logical ids', () => {
    const retained = { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' };
    expect(template.toJSON().Resources.Table).toMatchObject({ Type: 'AWS::DynamoDB::Table', ...retained });
    expect(template.toJSON().Resources.UserPool).toMatchObject({ Type: 'AWS::Cognito::UserPool', ...retained });
    expect(template.toJSON().Resources.SecretsKey).toMatchObject({ Type: 'AWS::KMS::Key', ...retained });
    expect(template.toJSON().Resources.UserPoolWebClient).toMatchObject({ Type: 'AWS::Cognito::UserPoolClient' });
  });

  it('signs users in by email, lets them sign up, and enforces 8+ characters with upper, lower and a digit', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      Policies: {
        PasswordPolicy: {
          MinimumLength: 8,
          RequireUppercase: true,
          RequireLowercase: true,
          RequireNumbers: true,
          RequireSymbols: false,
        },
      },
      DeletionProtection: 'ACTIVE',
    });
  });

  it('gives the SPA a client without secret for USER_PASSWORD_AUTH, SRP and refresh', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayEquals([
        'ALLOW_USER_PASSWORD_AUTH',
        'ALLOW_USER_SRP_AUTH',
        'ALLOW_REFRESH_TOKEN_AUTH',
      ]),
      PreventUserExistenceErrors: 'ENABLED',
    });
  });

  it('creates exactly the four role groups', () => {
    const groups = Object.values(resourcesOf(template, 'AWS::Cognito::UserPoolGroup')).map(
      (g) => g.Properties['GroupName'],
    );
    expect(groups.sort()).toEqual([...allRoles].sort());
    expect(groups).toHaveLength(4);
  });

  it('wires pre sign-up and post confirmation to the handlers named in routes.ts', () => {
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    const logicalIdOf = (handler: string) =>
      Object.entries(functions).find(([, f]) => String(f.Properties['Description']).includes(`functions/${handler}.ts`))?.[0];
    const preSignUp = logicalIdOf(triggers.preSignUp.handler);
    const postConfirmation = logicalIdOf(triggers.postConfirmation.handler);
    expect(preSignUp).toBeDefined();
    expect(postConfirmation).toBeDefined();
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: {
        PreSignUp: { 'Fn::GetAtt': [preSignUp, 'Arn'] },
        PostConfirmation: { 'Fn::GetAtt': [postConfirmation, 'Arn'] },
      },
    });
  });

  it('lets post confirmation add users to groups of this pool only, without a pool <-> trigger cycle', () => {
    // Synthesizing at all proves there is no cycle; the grant names the pool by ARN in its own policy.
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          { Action: 'cognito-idp:AdminAddUserToGroup', Effect: 'Allow', Resource: { 'Fn::GetAtt': ['UserPool', 'Arn'] } },
        ],
      },
    });
    const envs = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).map(
      (f) => (f.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables,
    );
    for (const env of envs) expect(env).not.toHaveProperty('USER_POOL_ID');
  });

  it('rotates the secrets key', () => {
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  it('outputs what the local cloud calls Region, UserPoolId, UserPoolClientId and TableName', () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    expect(outputs).toEqual(expect.arrayContaining(['Region', 'UserPoolId', 'UserPoolClientId', 'TableName']));
  });
});

describe("the pool's own emails", () => {
  const customMessageId = (t: Template) =>
    Object.entries(resourcesOf(t, 'AWS::Lambda::Function')).find(([, f]) =>
      String(f.Properties['Description']).includes(`functions/${triggers.customMessage.handler}.ts`),
    );

  it('link the reset email to the app through the CustomMessage trigger when the origin is known', () => {
    const { data } = synthPlatform({
      context: { appOrigin: 'https://d123.cloudfront.net', fromEmail: 'Courses <no-reply@courses.example.com>' },
    });
    const t = Template.fromStack(data);
    expect(unacknowledgedNagFindings(data)).toEqual([]);
    const [id, fn] = customMessageId(t) ?? [];
    expect(id).toBeDefined();
    expect((fn!.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      APP_ORIGIN: 'https://d123.cloudfront.net',
    });
    t.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: Match.objectLike({ CustomMessage: { 'Fn::GetAtt': [id, 'Arn'] } }),
    });
  });

  it('take the origin from the custom domain', () => {
    const t = Template.fromStack(
      synthPlatform({
        context: { domainName: 'courses.example.com', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/x' },
      }).data,
    );
    const [, fn] = customMessageId(t) ?? [];
    expect((fn!.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      APP_ORIGIN: 'https://courses.example.com',
    });
  });

  it("keep Cognito's code-only message and sender when neither origin nor sender is set", () => {
    expect(customMessageId(template)).toBeUndefined();
    const pool = Object.values(resourcesOf(template, 'AWS::Cognito::UserPool'))[0]!;
    expect(pool.Properties['LambdaConfig']).not.toHaveProperty('CustomMessage');
    const email = pool.Properties['EmailConfiguration'] as { EmailSendingAccount?: string } | undefined;
    expect(email?.EmailSendingAccount ?? 'COGNITO_DEFAULT').toBe('COGNITO_DEFAULT');
  });

  it('go through SES as fromEmail, from the verified domain identity of its address', () => {
    const t = Template.fromStack(synthPlatform({ context: { fromEmail: 'Courses <no-reply@courses.example.com>' } }).data);
    t.hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: {
        EmailSendingAccount: 'DEVELOPER',
        From: 'Courses <no-reply@courses.example.com>',
        SourceArn: {
          'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':identity/courses\\.example\\.com$')])],
        },
      },
    });
  });

  it('refuse an origin with a path or without https', () => {
    expect(() => synthPlatform({ context: { appOrigin: 'http://d123.cloudfront.net' } })).toThrow(/appOrigin/);
    expect(() => synthPlatform({ context: { appOrigin: 'https://d123.cloudfront.net/app' } })).toThrow(/appOrigin/);
  });
});


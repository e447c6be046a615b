import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { configKeys } from '#functions/config.ts';
import { DEFAULT_THROTTLE, routeKey, routes } from '#functions/routes.ts';
import type { ApiRoute } from '#lib/constructs/api-routes.ts';
import { configKeySources } from '#lib/constructs/function-access.ts';
import { resourcesOf, synthPlatform } from './synth-platform.ts';

type Props = Record<string, unknown>;
let template: Template;
beforeAll(() => {
  template = Template.fromStack(synthPlatform().api);
});

const functionOf = (t: Template, routeName: string): Props => {
  const found = Object.values(resourcesOf(t, 'AWS::Lambda::Function')).find((f) =>
    String(f.Properties['Description']).startsWith(`${routeName} (`),
  );
  if (!found) throw new Error(`no function for ${routeName}`);
  return found.Properties;
};
const envOf = (fn: Props): Record<string, unknown> => (fn['Environment'] as { Variables: Record<string, unknown> }).Variables;
const actionsOf = (t: Template): string[] =>
  Object.values(resourcesOf(t, 'AWS::IAM::Policy')).flatMap((p) =>
    (p.Properties['PolicyDocument'] as { Statement: { Action: string | string[] }[] }).Statement.flatMap((s) => s.Action),
  );

describe('the api stack', () => {
  it('has one route per entry of routes.ts, behind the JWT authorizer unless public', () => {
    const apiRoutes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties);
    expect(apiRoutes.map((r) => r['RouteKey']).sort()).toEqual(routes.map(routeKey).sort());
    for (const route of routes) {
      const created = apiRoutes.find((r) => r['RouteKey'] === routeKey(route))!;
      if (route.access === 'public') {
        expect(created['AuthorizationType'], routeKey(route)).toBe('NONE');
      } else {
        expect(created['AuthorizationType'], routeKey(route)).toBe('JWT');
        expect(created['AuthorizerId'], routeKey(route)).toBeDefined();
      }
    }
  });

  it('authorizes with the user pool as issuer and the SPA client as audience, from the Authorization header', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [Match.anyValue()],
        Issuer: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([Match.stringLikeRegexp('cognito-idp')])]) }),
      },
    });
  });

  it('gives every route a function with its handler file', () => {
    for (const route of routes) {
      expect(functionOf(template, route.name)['Description']).toBe(`${route.name} (functions/${route.handler}.ts)`);
    }
  });

  it('throttles the stage by default and each route by its own limits', () => {
    const stage = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'))[0]!.Properties;
    expect(stage['StageName']).toBe('$default');
    expect(stage['DefaultRouteSettings']).toMatchObject({
      ThrottlingRateLimit: DEFAULT_THROTTLE.rate,
      ThrottlingBurstLimit: DEFAULT_THROTTLE.burst,
    });
    const expected = Object.fromEntries(
      routes.map((r) => {
        const t = r.throttle ?? DEFAULT_THROTTLE;
        return [routeKey(r), { ThrottlingRateLimit: t.rate, ThrottlingBurstLimit: t.burst }];
      }),
    );
    expect(stage['RouteSettings']).toEqual(expected);
  });

  it('writes JSON access logs with the request id to a log group with retention', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context.requestId') },
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  const policyOf = (routeName: string): string => {
    const fn = functionOf(template, routeName);
    const roleId = (fn['Role'] as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties['Roles']).includes(roleId),
    );
    return JSON.stringify(policies.map((p) => p.Properties['PolicyDocument']));
  };

  it('lets GET routes only read the table', () => {
    for (const route of routes.filter((r) => r.method === 'GET' && r.table !== 'none')) {
      const actions = policyOf(route.name);
      expect(actions, route.name).toContain('dynamodb:Query');
      expect(actions, route.name).not.toMatch(/dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem|Scan)/);
    }
  });

  it('gives a route that declares no table use neither a table grant nor TABLE_NAME (the health check)', () => {
    const untouched = routes.filter((r) => r.table === 'none');
    expect(untouched.map((r) => r.name)).toContain('health');
    for (const route of untouched) {
      expect(policyOf(route.name), route.name).not.toContain('dynamodb:');
      expect(envOf(functionOf(template, route.name))['TABLE_NAME'], route.name).toBeUndefined();
    }
  });

  it('never sets a local-only variable (endpoints, key file) on a function', () => {
    const localOnly = configKeys.filter((k) => ['local-only', 'runtime'].includes(configKeySources[k]));
    for (const fn of Object.values(resourcesOf(template, 'AWS::Lambda::Function'))) {
      for (const key of localOnly) expect(envOf(fn.Properties)).not.toHaveProperty(key);
    }
  });
});

describe('a route that uses mail, payments, the text model, the directory and secrets', () => {
  const invite: ApiRoute = {
    name: 'create-invitation',
    method: 'POST',
    path: '/api/invitations',
    handler: 'http/get-me', // any existing module: bundling is off in these tests
    access: ['creator'],
    profile: 'heavy',
    uses: ['mail', 'payments', 'text-model', 'directory:admin', 'secrets'],
    throttle: { rate: 2, burst: 5 },
  };
  let t: Template;
  beforeAll(() => {
    t = Template.fromStack(synthPlatform({ routes: [...routes, invite] }).api);
  });

  it('gets the heavy profile: 1024 MB and 30 s', () => {
    expect(functionOf(t, invite.name)).toMatchObject({ MemorySize: 1024, Timeout: 30 });
  });

  it('gets exactly the variables those capabilities read, the Stripe keys as Secrets Manager references', () => {
    const env = envOf(functionOf(t, invite.name));
    expect(Object.keys(env).sort()).toEqual(
      [
        'APP_ORIGIN',
        'BEDROCK_MODEL_ID',
        'LOG_LEVEL',
        'MAIL_FROM',
        'NODE_OPTIONS',
        'SECRETS_KEY_ID',
        'SES_CONFIGURATION_SET',
        'STRIPE_PRICE_CREDITS',
        'STRIPE_PRICE_PRO',
        'STRIPE_PRICE_STARTER',
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'TABLE_NAME',
        'USER_POOL_ID',
      ].sort(),
    );
    expect(JSON.stringify(env['STRIPE_SECRET_KEY'])).toContain('{{resolve:secretsmanager:course-platform/stripe:SecretString:secretKey::}}');
    expect(JSON.stringify(env['STRIPE_WEBHOOK_SECRET'])).toContain(':SecretString:webhookSecret::}}');
  });

  it('may write the table, send mail, invoke the model, administer users and use the key', () => {
    const actions = actionsOf(t);
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'ses:SendEmail',
        'bedrock:InvokeModel',
        'cognito-idp:AdminCreateUser',
        'cognito-idp:AdminAddUserToGroup',
        'kms:Decrypt',
        'kms:Encrypt',
      ]),
    );
  });

  it('is throttled by its own limits', () => {
    const stage = Object.values(resourcesOf(t, 'AWS::ApiGatewayV2::Stage'))[0]!.Properties;
    expect((stage['RouteSettings'] as Record<string, unknown>)['POST /api/invitations']).toEqual({
      ThrottlingRateLimit: 2,
      ThrottlingBurstLimit: 5,
    });
  });

  it('leaves the routes without capabilities without those grants', () => {
    expect(actionsOf(template)).not.toEqual(expect.arrayContaining(['ses:SendEmail']));
    expect(actionsOf(template)).not.toEqual(expect.arrayContaining(['bedrock:InvokeModel']));
    expect(actionsOf(template)).not.toEqual(expect.arrayContaining(['cognito-idp:AdminCreateUser']));
  });
});

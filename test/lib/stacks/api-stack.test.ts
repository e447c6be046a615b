import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { config, configKeys, resetConfig } from '#functions/config.ts';
import { DEFAULT_THROTTLE, isKeyAccess, type RouteDef, routeKey, routes as routeTable } from '#functions/routes.ts';
import { type ApiRoute, ROUTE_GROUPS, routeGroupOf } from '#lib/constructs/api-routes.ts';
import { FIRST_GROUP_ROUTES } from '#lib/constructs/first-route-groups.ts';
import { isSetOutsideApp } from '#lib/constructs/function-access.ts';
import { jobQueueName } from '#lib/constructs/job-queue-names.ts';
import { defaultDeploySettings } from '#lib/stacks/deploy-settings.ts';
import { nestedStacksOf, resourcesOf, synthPlatform, withNestedStacks } from './synth-platform.ts';

const routes: readonly RouteDef[] = routeTable;

type Props = Record<string, unknown>;
let template: Template;
beforeAll(() => {
  template = withNestedStacks(synthPlatform().api);
});

/** A template's functions by route name (their description starts with it), read once per template. */
const functionsByRoute = new WeakMap<Template, Map<string, Props>>();
const functionOf = (t: Template, routeName: string): Props => {
  let byName = functionsByRoute.get(t);
  if (!byName) {
    byName = new Map();
    for (const f of Object.values(resourcesOf(t, 'AWS::Lambda::Function'))) {
      const name = String(f.Properties['Description']).split(' (')[0]!;
      if (!byName.has(name)) byName.set(name, f.Properties);
    }
    functionsByRoute.set(t, byName);
  }
  const found = byName.get(routeName);
  if (!found) throw new Error(`no function for ${routeName}`);
  return found;
};
/** Variables aws-cdk-lib's `paramsAndSecrets` sets for the extension itself. */
const isExtensionSetting = (key: string): boolean => /^(PARAMETERS_SECRETS_EXTENSION_|SECRETS_MANAGER_|SSM_PARAMETER_STORE_)/.test(key);
const envOf = (fn: Props): Record<string, unknown> => (fn['Environment'] as { Variables: Record<string, unknown> }).Variables;
const actionsOf = (t: Template): string[] =>
  Object.values(resourcesOf(t, 'AWS::IAM::Policy')).flatMap((p) =>
    (p.Properties['PolicyDocument'] as { Statement: { Action: string | string[] }[] }).Statement.flatMap((s) => s.Action),
  );

/** Every policy statement of a route's function role, as JSON text. */
const policyOf = (t: Template, routeName: string): string => {
  const fn = functionOf(t, routeName);
  const roleId = (fn['Role'] as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
  const policies = policiesWithRoles(t).filter((p) => p.roles.includes(roleId));
  return JSON.stringify(policies.map((p) => p.document));
};
/** A template's policies with their roles as JSON text, read once per template. */
const policiesWithRoles = (t: Template): { roles: string; document: unknown }[] => {
  let found = policiesByTemplate.get(t);
  if (!found) {
    found = Object.values(resourcesOf(t, 'AWS::IAM::Policy')).map((p) => ({ roles: JSON.stringify(p.Properties['Roles']), document: p.Properties['PolicyDocument'] }));
    policiesByTemplate.set(t, found);
  }
  return found;
};
const policiesByTemplate = new WeakMap<Template, { roles: string; document: unknown }[]>();

describe('the api stack', () => {
  it('has one route per entry of routes.ts, behind the JWT authorizer unless public or a /v1 key route (the key authorizer)', () => {
    const apiRoutes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties);
    expect(apiRoutes.map((r) => r['RouteKey']).sort()).toEqual(routes.map(routeKey).sort());
    for (const route of routes) {
      const created = apiRoutes.find((r) => r['RouteKey'] === routeKey(route))!;
      if (route.access === 'public') {
        expect(created['AuthorizationType'], routeKey(route)).toBe('NONE');
      } else if (isKeyAccess(route.access)) {
        expect(created['AuthorizationType'], routeKey(route)).toBe('CUSTOM');
        expect(JSON.stringify(created['AuthorizerId']), routeKey(route)).toContain('KeyAuthorizer');
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

  it('checks API keys with a Lambda authorizer: simple responses, payload 2.0, the Authorization header, cached a minute', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      Name: 'api-key',
      IdentitySource: ['$request.header.Authorization'],
      EnableSimpleResponses: true,
      AuthorizerPayloadFormatVersion: '2.0',
      AuthorizerResultTtlInSeconds: 60,
    });
    template.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'apigateway.amazonaws.com', SourceArn: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([Match.stringLikeRegexp('authorizers/')])]) }) });
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

  it("tells every route's function the origin header's two values (decision 0028), and no job or trigger", () => {
    const { api, jobs, data } = synthPlatform();
    const routeTemplate = withNestedStacks(api);
    for (const route of routes) {
      const env = JSON.stringify(envOf(functionOf(routeTemplate, route.name)));
      expect(env, route.name).toMatch(/"ORIGIN_SECRET":.*OriginSecret/);
      expect(env, route.name).toMatch(/"PAGES_ORIGIN_SECRET":.*PagesOriginSecret/);
    }
    for (const stack of [jobs, data]) {
      for (const fn of Object.values(resourcesOf(withNestedStacks(stack), 'AWS::Lambda::Function'))) {
        expect(JSON.stringify(fn.Properties['Environment'] ?? {})).not.toContain('ORIGIN_SECRET');
      }
    }
  });

  it('writes JSON access logs with the request id to a log group with retention', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context.requestId') },
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  it("lets GET routes only read the table, unless one says it writes (the affiliate link counts its clicks, a learner's first opening of a lesson its course report, Google's consent callback stores the consent; the cached course page counts nothing)", () => {
    const writers = routes.filter((r) => r.method === 'GET' && r.table === 'read-write');
    expect(writers.map((r) => r.name).sort()).toEqual(['google-callback', 'learner-lesson', 'referral-link']);
    for (const route of routes.filter((r) => r.method === 'GET' && r.table === undefined)) {
      const actions = policyOf(template, route.name);
      expect(actions, route.name).toContain('dynamodb:Query');
      expect(actions, route.name).not.toMatch(/dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem|Scan)/);
    }
    for (const route of writers) expect(policyOf(template, route.name), route.name).toContain('dynamodb:UpdateItem');
  });

  it('gives a route that declares no table use neither a table grant nor TABLE_NAME (the health check)', () => {
    const untouched = routes.filter((r) => r.table === 'none');
    expect(untouched.map((r) => r.name)).toContain('health');
    for (const route of untouched) {
      expect(policyOf(template, route.name), route.name).not.toContain('dynamodb:');
      expect(envOf(functionOf(template, route.name))['TABLE_NAME'], route.name).toBeUndefined();
    }
  });

  it("never sets a local-only or Lambda's own variable (endpoints, key file, session token) on a function", () => {
    const notOurs = configKeys.filter((k) => isSetOutsideApp(k) && k !== 'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT');
    for (const fn of Object.values(resourcesOf(template, 'AWS::Lambda::Function'))) {
      for (const key of notOurs) expect(envOf(fn.Properties)).not.toHaveProperty(key);
    }
  });
});

describe('the route groups (nested stacks: one stack holds about 70 routes)', () => {
  it("puts each route's function and API route in the nested stack its name hashes to", () => {
    const { api } = synthPlatform();
    // The route groups, not the nested stacks that hold their alarms (lib/constructs/alarms.ts).
    const groups = nestedStacksOf(api).filter((stack) => stack.node.scope === api.routes);
    // Only the groups that have a route are made (an empty nested stack is not a valid template).
    const used = new Set(routes.map((route) => routeGroupOf(route.name)));
    expect(groups.map((g) => g.node.id).sort()).toEqual([...used].map((i) => `Group${i}`).sort());
    const keysOf = new Map(groups.map((g) => [g.node.id, Object.values(resourcesOf(Template.fromStack(g), 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties['RouteKey'])]));
    for (const route of routes) expect(keysOf.get(`Group${routeGroupOf(route.name)}`), route.name).toContain(routeKey(route));
    expect([...keysOf.values()].flat()).toHaveLength(routes.length);
  });

  it('never moves a route to another group (a moved function is replaced): the hash is fixed, and later routes go to the next four', () => {
    expect(['get-me', 'health', 'stripe-webhook', 'list-courses', 'public-course'].map(routeGroupOf)).toEqual([0, 3, 0, 2, 2]);
    // Names that hash to 0..3 as well, but were not deployed in the first four groups.
    expect(['a-route-added-later', 'another-new-route', 'get-me-later'].map(routeGroupOf).every((g) => g >= 4 && g < ROUTE_GROUPS)).toBe(true);
    for (const name of FIRST_GROUP_ROUTES) expect(routeGroupOf(name), name).toBeLessThan(4);
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
    t = withNestedStacks(synthPlatform({ routes: [...routes, invite] }).api);
  });

  it('gets the heavy profile: 1024 MB and 30 s', () => {
    expect(functionOf(t, invite.name)).toMatchObject({ MemorySize: 1024, Timeout: 30 });
    expect(envOf(functionOf(t, invite.name))['FUNCTION_PROFILE']).toBe('heavy');
  });

  it("gets exactly the variables those capabilities read, the Stripe API key's secret by name", () => {
    const env = envOf(functionOf(t, invite.name));
    expect(Object.keys(env).filter((key) => !isExtensionSetting(key)).sort()).toEqual(
      [
        'APP_ORIGIN',
        'BEDROCK_MODEL_ID',
        // Which DynamoDB retry policy fits its timeout (functions/adapters/client-policy.ts).
        'FUNCTION_PROFILE',
        'LOG_LEVEL',
        'MAIL_FROM',
        'NODE_OPTIONS',
        // Every route's: the origin header's values (decision 0028).
        'ORIGIN_SECRET',
        'PAGES_ORIGIN_SECRET',
        'SECRETS_KEY_ID',
        'SES_CONFIGURATION_SET',
        'STRIPE_PRICE_CREDITS',
        'STRIPE_PRICE_PRO',
        'STRIPE_PRICE_STARTER',
        'STRIPE_API_KEY_SECRET_ID',
        'TABLE_NAME',
        'USER_POOL_ID',
      ].sort(),
    );
    expect(env['STRIPE_API_KEY_SECRET_ID']).toBe(defaultDeploySettings.stripeApiKeySecretName);
  });

  it('may write the table, send mail, invoke the model, administer users and use the key', () => {
    const actions = actionsOf(t);
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'ses:SendEmail',
        // The send rate and daily quota the mail senders pace themselves by.
        'ses:GetAccount',
        'bedrock:InvokeModel',
        'cognito-idp:AdminCreateUser',
        'cognito-idp:AdminAddUserToGroup',
        'kms:Decrypt',
        'kms:GenerateDataKey',
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

  it('grants a capability to exactly the routes that declare it', () => {
    const grants = {
      mail: 'ses:SendEmail',
      'text-model': 'bedrock:InvokeModel',
      'directory:admin': 'cognito-idp:AdminCreateUser',
      // (AbortMultipartUpload alone would not tell it apart: capability 'exports' has it too, on exports/.)
      files: 's3:ListMultipartUploadParts',
      secrets: 'kms:GenerateDataKey',
    } as const;
    for (const route of routes) {
      for (const [capability, action] of Object.entries(grants)) {
        const declared = route.uses?.some((use) => use === capability) ?? false;
        expect({ route: route.name, action, granted: policyOf(template, route.name).includes(`"${action}"`) }).toEqual({ route: route.name, action, granted: declared });
      }
    }
  });
});

describe('exports (exports/ in the files bucket; issue 28)', () => {
  it('lets exactly the routes that use exports write, read and abort under exports/, and nothing else there', () => {
    for (const route of routes) {
      const statements = (JSON.parse(policyOf(template, route.name)) as { Statement: { Action: string | string[]; Resource: unknown }[] }[])
        .flatMap((doc) => doc.Statement)
        .filter((st) => JSON.stringify(st.Resource).includes('/exports/*'));
      const actions = statements.flatMap((st) => st.Action).sort();
      expect({ route: route.name, actions }).toEqual({ route: route.name, actions: route.uses?.some((use) => use === 'exports') ? ['s3:AbortMultipartUpload', 's3:GetObject', 's3:PutObject'] : [] });
    }
    expect(routes.filter((r) => r.uses?.some((use) => use === 'exports')).map((r) => r.name).sort()).toEqual(['affiliate-payout-export', 'creator-export', 'leader-reports', 'personal-export-status']);
  });
});

describe("the creators' pictures (avatars/ in the files bucket)", () => {
  /** The S3 actions a route's role has on avatars/, sorted. */
  const avatarActionsOf = (routeName: string): string[] =>
    (JSON.parse(policyOf(template, routeName)) as { Statement: { Action: string | string[]; Resource: unknown }[] }[])
      .flatMap((doc) => doc.Statement)
      .filter((st) => JSON.stringify(st.Resource).includes('/avatars/*'))
      .flatMap((st) => [st.Action].flat())
      .sort();

  it("lets the routes that upload them put, read and delete them, the public pages only read them, and no other route touch them", () => {
    for (const route of routes) {
      const expected = route.uses?.includes('avatars') ? ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'] : route.uses?.includes('avatars:read') ? ['s3:GetObject'] : [];
      expect({ route: route.name, actions: avatarActionsOf(route.name) }).toEqual({ route: route.name, actions: expected });
    }
    expect(avatarActionsOf('public-course')).toEqual(['s3:GetObject']);
    expect(avatarActionsOf('save-public-profile')).toContain('s3:PutObject');
  });
});

describe('starting the campaign sender at once', () => {
  it('lets the send-campaign route send only to the campaign sender job queue, tells it that URL, and invokes no function', () => {
    const { api } = synthPlatform();
    const apiTemplate = withNestedStacks(api);
    const queue = jobQueueName('campaign-sender');
    expect(JSON.stringify(envOf(functionOf(apiTemplate, 'send-campaign'))['JOB_QUEUE_URLS'])).toContain(queue);
    const statements = (JSON.parse(policyOf(apiTemplate, 'send-campaign')) as { Statement: { Action: string | string[]; Resource: unknown }[] }[]).flatMap((doc) => doc.Statement);
    const sends = statements.filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
    expect(sends).toHaveLength(1);
    expect([sends[0]!.Action].flat()).toEqual(['sqs:SendMessage']);
    expect(JSON.stringify(sends[0]!.Resource)).toContain(`:${queue}`);
    expect(JSON.stringify(statements)).not.toContain('lambda:InvokeFunction');
    expect(envOf(functionOf(apiTemplate, 'send-campaign'))).not.toHaveProperty('CAMPAIGN_SENDER_FUNCTION');
  });
});

describe('the Stripe secrets', () => {
  const apiKeyName = defaultDeploySettings.stripeApiKeySecretName;
  const webhookName = defaultDeploySettings.stripeWebhookSecretName;
  const connectWebhookName = defaultDeploySettings.stripeConnectWebhookSecretName;
  // The Connect webhook calls Stripe too (a refund), with its own secret besides: asserted on its own below.
  const callers = routes.filter((r) => r.uses?.includes('payments') && r.name !== 'stripe-connect-webhook').map((r) => r.name);
  const extensionLayer = /AWS-Parameters-and-Secrets-Lambda-Extension-Arm64/;
  const layersOf = (routeName: string): string => JSON.stringify(functionOf(template, routeName)['Layers'] ?? []);
  /** The secret ARNs a route's role may read (`secretsmanager:GetSecretValue`), as JSON text. */
  const readableSecretsOf = (routeName: string): string => {
    const statements = (JSON.parse(policyOf(template, routeName)) as { Statement: { Action: string | string[]; Resource: unknown }[] }[])
      .flatMap((doc) => doc.Statement)
      .filter((st) => [st.Action].flat().some((action) => action.startsWith('secretsmanager:')));
    for (const st of statements) expect([st.Action].flat()).toEqual(['secretsmanager:GetSecretValue']);
    return JSON.stringify(statements.map((st) => st.Resource));
  };

  it('never puts a secret value, or a reference that resolves to one, into any function environment (but the origin header values)', () => {
    const { data, edge, web, api, jobs } = synthPlatform();
    const stacks = [data, web, api, jobs, ...(edge ? [edge] : [])];
    const functions = stacks.flatMap((stack) => Object.values(resourcesOf(withNestedStacks(stack), 'AWS::Lambda::Function')));
    expect(functions.length).toBeGreaterThan(routes.length);
    for (const fn of functions) {
      // The origin header's values (decision 0028) sit in the distributions' configuration as well: not credentials.
      const { ORIGIN_SECRET: _app, PAGES_ORIGIN_SECRET: _pages, ...rest } = ((fn.Properties['Environment'] as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {});
      const env = JSON.stringify(rest);
      expect(env).not.toMatch(/resolve:secretsmanager|resolve:ssm-secure/);
      expect(env).not.toMatch(/\b(sk|rk)_(test|live)_|whsec_/);
      expect(env).not.toMatch(/"STRIPE_(SECRET_KEY|WEBHOOK_SECRET)"/);
    }
  });

  it('tells checkout (of a course, a bundle or a membership), the portals and top-up where the API key is, and lets them read that secret only', () => {
    expect(callers.sort()).toEqual([
      'billing-checkout',
      'billing-portal',
      'bundle-checkout',
      'connect-payouts',
      'course-checkout',
      'create-coupon',
      'delete-coupon',
      'membership-checkout',
      'membership-portal',
      'purchase-credits',
      'refund-sale',
      'update-coupon',
    ]);
    for (const name of callers) {
      const env = envOf(functionOf(template, name));
      expect(env['STRIPE_API_KEY_SECRET_ID'], name).toBe(apiKeyName);
      expect(env, name).not.toHaveProperty('STRIPE_WEBHOOK_SECRET_ID');
      expect(layersOf(name), name).toMatch(extensionLayer);
      expect(readableSecretsOf(name), name).toContain(`:secret:${apiKeyName}-??????`);
      expect(readableSecretsOf(name), name).not.toContain(webhookName);
      expect(readableSecretsOf(name), name).not.toContain(connectWebhookName);
    }
  });

  it('tells the webhook where its signing secret is, and lets it read that secret but not the API key', () => {
    const env = envOf(functionOf(template, 'stripe-webhook'));
    expect(env['STRIPE_WEBHOOK_SECRET_ID']).toBe(webhookName);
    expect(env).not.toHaveProperty('STRIPE_API_KEY_SECRET_ID');
    expect(env).toHaveProperty('STRIPE_PRICE_STARTER');
    expect(env).not.toHaveProperty('APP_ORIGIN');
    expect(layersOf('stripe-webhook')).toMatch(extensionLayer);
    expect(readableSecretsOf('stripe-webhook')).toContain(`:secret:${webhookName}-??????`);
    expect(readableSecretsOf('stripe-webhook')).not.toContain(apiKeyName);
    expect(readableSecretsOf('stripe-webhook')).not.toContain(connectWebhookName);
  });

  it("tells the Connect webhook where the Connect endpoint's secret and the API key are (it refunds a paid order it cannot fulfil), never the platform webhook's", () => {
    const env = envOf(functionOf(template, 'stripe-connect-webhook'));
    expect(env['STRIPE_CONNECT_WEBHOOK_SECRET_ID']).toBe(connectWebhookName);
    expect(env['STRIPE_API_KEY_SECRET_ID']).toBe(apiKeyName);
    expect(env).not.toHaveProperty('STRIPE_WEBHOOK_SECRET_ID');
    expect(layersOf('stripe-connect-webhook')).toMatch(extensionLayer);
    expect(readableSecretsOf('stripe-connect-webhook')).toContain(`:secret:${connectWebhookName}-??????`);
    expect(readableSecretsOf('stripe-connect-webhook')).toContain(`:secret:${apiKeyName}-??????`);
    expect(readableSecretsOf('stripe-connect-webhook')).not.toContain(`:secret:${webhookName}-`);
  });

  it('caches secrets in the extension for 5 minutes on its default port, which functions/config.ts also defaults to', () => {
    const env = envOf(functionOf(template, 'billing-checkout'));
    expect(env).toMatchObject({ PARAMETERS_SECRETS_EXTENSION_CACHE_ENABLED: 'true', SECRETS_MANAGER_TTL: '300' });
    const saved = process.env['PARAMETERS_SECRETS_EXTENSION_HTTP_PORT'];
    delete process.env['PARAMETERS_SECRETS_EXTENSION_HTTP_PORT'];
    resetConfig();
    try {
      expect(env['PARAMETERS_SECRETS_EXTENSION_HTTP_PORT']).toBe(String(config().PARAMETERS_SECRETS_EXTENSION_HTTP_PORT));
    } finally {
      if (saved !== undefined) process.env['PARAMETERS_SECRETS_EXTENSION_HTTP_PORT'] = saved;
      resetConfig();
    }
  });

  it('gives a function without a payments or Google capability neither the extension nor any secret', () => {
    const others = routes.filter((r) => !r.uses?.some((c) => c === 'payments' || c === 'payments-webhook' || c === 'payments-connect-webhook' || c === 'google-calendar'));
    expect(others.map((r) => r.name)).toEqual(expect.arrayContaining(['health', 'get-me', 'use-credits']));
    for (const route of others) {
      expect(functionOf(template, route.name)['Layers'], route.name).toBeUndefined();
      expect(policyOf(template, route.name), route.name).not.toContain('secretsmanager:');
      expect(Object.keys(envOf(functionOf(template, route.name))).filter(isExtensionSetting), route.name).toEqual([]);
    }
  });

  it("gives Google's consent routes the client id, Google's URLs and a grant on the client secret's name only", () => {
    for (const name of ['google-connect', 'google-callback']) {
      expect(envOf(functionOf(template, name)), name).toMatchObject({
        GOOGLE_OAUTH_CLIENT_SECRET_ID: 'course-platform/google-oauth-client-secret',
        GOOGLE_OAUTH_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
        GOOGLE_TOKEN_URL: 'https://oauth2.googleapis.com/token',
        GOOGLE_CALENDAR_API_URL: 'https://www.googleapis.com/calendar/v3',
      });
      expect(policyOf(template, name), name).toContain(':secret:course-platform/google-oauth-client-secret-??????');
      expect(policyOf(template, name), name).not.toContain('stripe');
    }
  });

  it('follows secret names given as context, in the variables and in the grants alike', () => {
    const context = { stripeApiKeySecretName: 'prod/stripe-key', stripeWebhookSecretName: 'prod/stripe-whsec' };
    const t = withNestedStacks(synthPlatform({ context }).api);
    expect(envOf(functionOf(t, 'billing-checkout'))['STRIPE_API_KEY_SECRET_ID']).toBe('prod/stripe-key');
    expect(policyOf(t, 'billing-checkout')).toContain(':secret:prod/stripe-key-??????');
    expect(envOf(functionOf(t, 'stripe-webhook'))['STRIPE_WEBHOOK_SECRET_ID']).toBe('prod/stripe-whsec');
    expect(policyOf(t, 'stripe-webhook')).toContain(':secret:prod/stripe-whsec-??????');
  });
});

describe('SES bounces and complaints', () => {
  it('are published by the configuration set to an encrypted, TLS-only topic that the ses-feedback function reads', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: Match.arrayEquals(['bounce', 'complaint']),
        SnsDestination: { TopicARN: Match.anyValue() },
      }),
    });
    const topics = Object.values(resourcesOf(template, 'AWS::SNS::Topic'));
    expect(topics).toHaveLength(1);
    expect(topics[0]!.Properties['KmsMasterKeyId']).toBeDefined();
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: Match.objectLike({ Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) }),
    });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: Match.objectLike({ Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'ses.amazonaws.com' } })]) }),
    });
    const feedback = functionOf(template, 'ses-feedback');
    expect(feedback['Handler']).toBe('index.handler');
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda' });
    // It writes suppressions: the table, nothing else (no mail, no secrets), and its failures to its dead-letter queue.
    const policy = policyOf(template, 'ses-feedback');
    expect(policy).toContain('dynamodb:PutItem');
    expect(policy).not.toMatch(/ses:|secretsmanager:/);
  });

  it("land, when SNS cannot deliver them or the function cannot apply them after Lambda's retries, in one encrypted dead-letter queue that is watched", () => {
    const [queueId, queue] = Object.entries(resourcesOf(template, 'AWS::SQS::Queue')).find(
      ([, q]) => q.Properties['QueueName'] === 'CoursePlatformApi-ses-feedback-dead-letters',
    )!;
    const [keyId] = Object.entries(resourcesOf(template, 'AWS::KMS::Key')).find(([, k]) =>
      String(k.Properties['Description']).startsWith('SES bounce and complaint notifications'),
    )!;
    // The notifications' own key (SNS cannot use SQS's keys), 14 days.
    expect(queue.Properties).toMatchObject({ KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] }, MessageRetentionPeriod: 14 * 24 * 3600 });
    const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda', RedrivePolicy: { deadLetterTargetArn: queueArn } });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Action: 'sqs:SendMessage', Principal: { Service: 'sns.amazonaws.com' }, Condition: { ArnEquals: { 'aws:SourceArn': Match.anyValue() } } }),
        ]),
      }),
    });
    template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: Match.objectLike({ Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'sns.amazonaws.com' }, Action: ['kms:GenerateDataKey*', 'kms:Decrypt'] })]) }),
    });
    // The function's asynchronous invocations (SNS's): 2 retries within 6 hours, then the invocation record.
    const feedbackId = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).find(([, f]) =>
      String(f.Properties['Description']).startsWith('ses-feedback ('),
    )![0];
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: feedbackId },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 6 * 3600,
      DestinationConfig: { OnFailure: { Destination: queueArn } },
    });
    // It may send there and use the key for it: exactly these actions, no wildcard.
    const statements = (JSON.parse(policyOf(template, 'ses-feedback')) as { Statement: { Action: string | string[]; Resource: unknown }[] }[]).flatMap((d) => d.Statement);
    expect(statements.filter((st) => JSON.stringify(st.Resource).includes(queueId))).toEqual([expect.objectContaining({ Action: 'sqs:SendMessage', Resource: queueArn })]);
    expect(statements.filter((st) => JSON.stringify(st.Resource).includes(keyId))).toEqual([
      expect.objectContaining({ Action: ['kms:GenerateDataKey', 'kms:Decrypt'], Resource: { 'Fn::GetAtt': [keyId, 'Arn'] } }),
    ]);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'CoursePlatformApi-ses-feedback-dead-letters',
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Threshold: 1,
    });
  });
});

import * as z from 'zod';
import { API_RATE_LIMIT, apiScopeLabels } from '#contracts/api-keys.ts';
import { errorBody } from '#contracts/common.ts';
import { publicApiOperations, type PublicApiOperation } from '#contracts/public-api.ts';
import { webhookEventLabels, webhookEventTypes, webhookPayloadOf, WEBHOOK_RETRY_DELAYS_S, type WebhookEventType } from '#contracts/webhooks.ts';

/** A /v1 row of the route table, as the document needs it. */
export interface PublicApiRoute {
  readonly name: string;
  readonly method: string;
  readonly path: string;
}

type JsonSchema = Record<string, unknown>;

/** zod's own JSON Schema (draft 2020-12, which OpenAPI 3.1 uses), as the request is read: inputs, defaults applied. */
const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

const statusText: Record<number, string> = {
  400: 'The request is not valid (details name each field).',
  401: 'No API key, or a key that is unknown or revoked.',
  403: 'The key lacks this scope (FORBIDDEN), or its creator\'s plan no longer includes API access (PLAN_REQUIRED).',
  404: 'No such resource among the key\'s creator\'s.',
  409: 'A conflict (already enrolled; an Idempotency-Key reused with another request, or still in progress).',
  429: `The key's rate limit (${API_RATE_LIMIT.rate} requests a second, bursts of ${API_RATE_LIMIT.burst}): retry after Retry-After seconds.`,
};

/** Query or header parameters of an object schema, each with its own schema and whether it is required. */
const parametersOf = (schema: z.ZodType | undefined, where: 'query' | 'header'): unknown[] => {
  if (!schema) return [];
  const json = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name: where === 'header' ? name.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => dash + c.toUpperCase()) : name,
    in: where,
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
};

const operationOf = (route: PublicApiRoute, op: PublicApiOperation) => {
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return {
    operationId: route.name.replace(/^v1-/, '').replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()),
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [route.path.split('/')[2]],
    security: [{ bearerAuth: [op.scope] }],
    'x-scope': op.scope,
    parameters: [...pathParameters, ...parametersOf(op.query, 'query'), ...parametersOf(op.headers, 'header')],
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(op.body, 'input') } } } } : {}),
    responses: {
      [op.success.status]: op.success.schema
        ? { description: 'Success.', content: { 'application/json': { schema: schemaOf(op.success.schema, 'output') } } }
        : { description: 'Done: no content.' },
      ...Object.fromEntries([...new Set([...op.errors, 401, 403, 429])].sort().map((status) => [status, errorResponse(statusText[status] ?? 'An error.')])),
    },
  };
};

/** A retry's wait as people say it (5 s, 5 min, 2 h). */
const waitOf = (seconds: number): string => (seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`);

/** The Standard Webhooks headers every delivery carries (docs/api.md "Deliveries"). */
const webhookHeaders = [
  { name: 'webhook-id', description: "The delivery's id (`msg_...`): the same on every retry, so a receiver can drop one it has seen.", example: 'msg_1764324000000a1b2c3d4e5f6a7b8c9d0e1' },
  { name: 'webhook-timestamp', description: 'When this attempt was signed, in seconds since the epoch: refuse one far from now.', example: '1764324000' },
  {
    name: 'webhook-signature',
    description: "`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint secret's base64 part. Verify with the `standardwebhooks` library: `new Webhook(secret).verify(body, headers)`.",
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map(({ name, description, example }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' }, example }));

/**
 * What a creator's endpoint receives for one event type (OpenAPI 3.1 `webhooks`): a signed POST of `{type, timestamp,
 * data}`, `data` its type's schema (functions/contracts/webhooks.ts), the schema events.ts checks each event against.
 */
const webhookOf = (type: WebhookEventType) => ({
  post: {
    operationId: type.replace(/\.(\w)/g, (_m, c: string) => c.toUpperCase()),
    summary: webhookEventLabels[type],
    description:
      `Sent to each of your endpoints subscribed to \`${type}\` (Developers page, or POST /api/webhook-endpoints), signed as ` +
      'the Standard Webhooks specification says.',
    tags: ['webhooks'],
    // Not an API key: the receiver checks the signature headers.
    security: [],
    parameters: webhookHeaders,
    requestBody: { required: true, content: { 'application/json': { schema: schemaOf(webhookPayloadOf(type), 'output') } } },
    responses: {
      '2XX': {
        description:
          `Delivered: any 2xx within 10 s. Anything else (another status, a redirect, a timeout) is retried after ` +
          `${WEBHOOK_RETRY_DELAYS_S.map(waitOf).join(', ')}, then marked failed.`,
      },
    },
  },
});

/**
 * The public API's OpenAPI 3.1 document (decision 0052), generated from the route table's /v1 rows and the zod schemas
 * their handlers parse with (functions/contracts/public-api.ts): nothing in it is written by hand but the words.
 * A row with no operation throws: the document never leaves a route out.
 */
export const openApiDocument = (routes: readonly PublicApiRoute[]) => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const op = (publicApiOperations as Record<string, PublicApiOperation>)[route.name];
    if (!op) throw new Error(`The /v1 route ${route.name} has no operation in functions/contracts/public-api.ts`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operationOf(route, op);
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Course platform API',
      version: '1',
      description:
        'Your courses, enrolments, learners and sales, for your own integrations (Pro plan). Create an API key with the ' +
        'scopes you need on the Developers page and send it as `Authorization: Bearer cp_...`. Errors share one body: ' +
        '`{"error": {"code", "message", "details?"}}`. Webhooks (below) tell your endpoints what happens, ' +
        'naming objects as the API does (an order is the sale of the same `id`).',
    },
    // No `servers`: the default, '/', is the origin that serves this document (the app's, through CloudFront).
    security: [{ bearerAuth: [] }],
    paths,
    // One entry per event type, whatever the routes: a new event type is documented the moment it exists.
    webhooks: Object.fromEntries(webhookEventTypes.map((type) => [type, webhookOf(type)])),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key (cp_...). Scopes: ${Object.entries(apiScopeLabels).map(([scope, label]) => `${scope} (${label})`).join(', ')}.`,
        },
      },
      schemas: { Error: schemaOf(errorBody, 'output') },
    },
  };
};

import * as z from 'zod';
import { API_RATE_LIMIT, apiScopeLabels } from '#contracts/api-keys.ts';
import { errorBody } from '#contracts/common.ts';
import { publicApiOperations, type PublicApiOperation } from '#contracts/public-api.ts';

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
        '`{"error": {"code", "message", "details?"}}`.',
    },
    // No `servers`: the default, '/', is the origin that serves this document (the app's, through CloudFront).
    security: [{ bearerAuth: [] }],
    paths,
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

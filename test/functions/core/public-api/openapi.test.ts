import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { publicApiOperations } from '#contracts/public-api.ts';
import { webhookEventData, webhookEventTypes } from '#contracts/webhooks.ts';
import { openApiDocument } from '#core/public-api/openapi.ts';
import { isKeyAccess, routes } from '#functions/routes.ts';

const v1 = routes.filter((r) => isKeyAccess(r.access));

describe('the public API OpenAPI document (generated)', () => {
  const doc = openApiDocument(v1);

  it('describes every /v1 route of the route table, each with its scope, and nothing else', () => {
    const described = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(described.sort()).toEqual(v1.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of v1) {
      const op = doc.paths[route.path]![route.method.toLowerCase()] as { security: unknown; responses: Record<string, unknown> };
      expect(op.security).toEqual([{ bearerAuth: [isKeyAccess(route.access) && route.access.key] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    }
    expect(Object.keys(publicApiOperations).sort()).toEqual(v1.map((r) => r.name).sort());
  });

  it('fails rather than leave out a /v1 route without an operation', () => {
    expect(() => openApiDocument([...v1, { name: 'v1-new-thing', method: 'GET', path: '/v1/things' }])).toThrow(/v1-new-thing/);
  });

  it('has the shape of OpenAPI 3.1: version, info, bearer security, JSON Schemas from the handlers\' zod schemas, the error body', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: '1' });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
    // The document as a client reads it: plain JSON.
    const enrol = JSON.parse(JSON.stringify(doc.paths['/v1/courses/{courseId}/enrollments']!['post']));
    expect(enrol['requestBody'].content['application/json'].schema).toMatchObject({ type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } } });
    expect(enrol['parameters']).toEqual(expect.arrayContaining([{ name: 'courseId', in: 'path', required: true, schema: { type: 'string' } }, expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]));
    expect(enrol['responses']['201'].content['application/json'].schema.required).toEqual(['learnerId', 'email', 'invited']);
    expect(enrol['responses']['409']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  });

  it('has a `webhooks` entry for every event type: a signed POST of {type, timestamp, data} with that type\'s data schema', () => {
    // The document as a client (or Swagger UI) reads it: plain JSON.
    const webhooks = JSON.parse(JSON.stringify(doc.webhooks));
    expect(Object.keys(webhooks).sort()).toEqual([...webhookEventTypes].sort());
    for (const type of webhookEventTypes) {
      const post = webhooks[type].post;
      expect(post['security'], type).toEqual([]);
      expect(post['parameters'].map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required]), type).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      const body = post['requestBody'].content['application/json'].schema;
      expect(body, type).toMatchObject({ type: 'object', required: ['type', 'timestamp', 'data'], properties: { type: { const: type }, timestamp: { type: 'string', format: 'date-time' } } });
      const { $schema: _dialect, ...data } = z.toJSONSchema(webhookEventData[type], { io: 'output' });
      expect(body.properties.data, type).toEqual(data);
      expect(Object.keys(post['responses']), type).toEqual(['2XX']);
      expect(post['responses']['2XX'].description, type).toMatch(/^Delivered/);
    }
    const paid = webhooks['order.paid'].post['requestBody'].content['application/json'].schema.properties.data;
    expect(paid.required).toEqual(expect.arrayContaining(['id', 'amount', 'currency', 'status']));
    expect(paid.properties.amount).toMatchObject({ type: 'integer', description: expect.stringMatching(/pence/i) });
  });
});

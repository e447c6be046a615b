import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '#functions/http/get-me.ts';
import { forgetStoredProfiles } from '#middleware/account.ts';
import { apiEvent, lambdaContext, parse } from '#test/functions/http-event.ts';

const dynamo = mockClient(DynamoDBDocumentClient);

beforeEach(() => {
  dynamo.reset();
  // A new Lambda instance: nothing remembered (middleware/account.ts).
  forgetStoredProfiles();
});

describe('GET /api/me', () => {
  it("answers the caller's profile read by its id, with the one read the middleware's account check made", async () => {
    dynamo.on(GetCommand, { Key: { pk: 'USER#u1', sk: 'PROFILE' } }).resolves({
      Item: { pk: 'USER#u1', sk: 'PROFILE', type: 'User', id: 'u1', email: 'c@example.com', role: 'creator', createdAt: '2026-11-01T10:00:00.000Z' },
    });
    const res = parse(await handler(apiEvent({ routeKey: 'GET /api/me', sub: 'u1', groups: ['creator'] }), lambdaContext));
    expect(res).toEqual({ status: 200, body: { id: 'u1', email: 'c@example.com', role: 'creator', createdAt: '2026-11-01T10:00:00.000Z' } });
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(1);
  });

  // Issue 27 point 9: the middleware checks every caller's stored profile first; a caller without one is refused there
  // (it was a 404 of this route before).
  it('answers 403 when the profile does not exist', async () => {
    dynamo.on(GetCommand).resolves({});
    const res = parse(await handler(apiEvent({ routeKey: 'GET /api/me', sub: 'ghost', groups: ['learner'] }), lambdaContext));
    expect(res).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'Your profile was not found. Contact support if this persists.' } } });
  });

  it('treats a malformed stored item as an error, not as a profile', async () => {
    dynamo.on(GetCommand).resolves({ Item: { pk: 'USER#u1', sk: 'PROFILE', id: 'u1', role: 'owner' } });
    const res = parse(await handler(apiEvent({ routeKey: 'GET /api/me', sub: 'u1', groups: ['creator'] }), lambdaContext));
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL');
  });

  it('does not touch the table for an anonymous caller', async () => {
    const res = parse(await handler(apiEvent({ routeKey: 'GET /api/me' }), lambdaContext));
    expect(res.status).toBe(401);
    expect(dynamo.calls()).toHaveLength(0);
  });
});

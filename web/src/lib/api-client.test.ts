import * as z from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { meResponse } from '@contracts/me.ts';
import { createApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';

const me = { id: 'u1', email: 'creator@example.com', role: 'creator', createdAt: '2025-01-02T03:04:05.000Z' };

function clientAnswering(status: number, body: unknown, token: string | null = 'access-token') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.resolve(new Response(status === 204 ? null : text, { status })));
  return { fetch, client: createApiClient({ getToken: () => Promise.resolve(token ?? undefined), fetch }) };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('apiClient', () => {
  it('sends the access token and returns the body parsed by the contract schema', async () => {
    const { client, fetch } = clientAnswering(200, me);
    await expect(client.get('/api/me', meResponse)).resolves.toEqual(me);

    const [path, init] = fetch.mock.calls[0]!;
    expect(path).toBe('/api/me');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer access-token');
  });

  it('adopts an answer already on its way instead of sending the request again, and still checks it', async () => {
    const { client, fetch } = clientAnswering(200, me);
    const sent = Promise.resolve(new Response(JSON.stringify(me), { status: 200 }));
    await expect(client.get('/api/me', meResponse, { sent })).resolves.toEqual(me);
    expect(fetch).not.toHaveBeenCalled();

    const refused = Promise.resolve(new Response(JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'Sign in to continue.' } }), { status: 401 }));
    expect((await failure(client.get('/api/me', meResponse, { sent: refused }))).status).toBe(401);
  });

  it('sends no Authorization header when nobody is signed in', async () => {
    const { client, fetch } = clientAnswering(200, { status: 'ok' }, null);
    await client.get('/api/health', z.object({ status: z.literal('ok') }));
    expect(new Headers(fetch.mock.calls[0]![1]?.headers).has('Authorization')).toBe(false);
  });

  it('sends a body as JSON', async () => {
    const { client, fetch } = clientAnswering(201, { id: 'c1' });
    await client.post('/api/courses', z.object({ id: z.string() }), { body: { title: 'Intro' } });
    const init = fetch.mock.calls[0]![1]!;
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"title":"Intro"}');
  });

  it("turns the contract's error body into an ApiError with its status, code, message and details", async () => {
    const details = [{ path: ['title'], message: 'Required' }];
    const { client } = clientAnswering(400, { error: { code: 'VALIDATION_FAILED', message: 'Invalid body', details } });
    const error = await failure(client.post('/api/courses', z.unknown(), { body: {} }));

    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Invalid body', details });
  });

  it('keeps the server message of a 402', async () => {
    const { client } = clientAnswering(402, { error: { code: 'INSUFFICIENT_CREDITS', message: 'You need 15 AI credits' } });
    const error = await failure(client.post('/api/credits/use', z.unknown(), { body: { creditsToUse: 15 } }));
    expect(error).toMatchObject({ status: 402, code: 'INSUFFICIENT_CREDITS', message: 'You need 15 AI credits' });
  });

  it('derives the code from the status when the body is not the contract (a proxy error page)', async () => {
    const { client } = clientAnswering(502, '<html>Bad Gateway</html>');
    const error = await failure(client.get('/api/me', meResponse));
    expect(error).toMatchObject({ status: 502, code: 'UPSTREAM_FAILED' });
  });

  it('treats an error body with an unknown code as not the contract', async () => {
    const { client } = clientAnswering(401, { error: { code: 'SOMETHING_ELSE', message: 'nope' } });
    const error = await failure(client.get('/api/me', meResponse));
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('rejects a 2xx answer that does not match the schema instead of handing it to the screen', async () => {
    const { client } = clientAnswering(200, { ...me, role: 'superuser' });
    const error = await failure(client.get('/api/me', meResponse));
    expect(error).toMatchObject({ status: 200, code: 'INVALID_RESPONSE' });
  });

  it('reports an unreachable server as NETWORK_FAILED', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.reject(new TypeError('Failed to fetch')));
    const client = createApiClient({ getToken: () => Promise.resolve(undefined), fetch });
    const error = await failure(client.get('/api/me', meResponse));
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_FAILED' });
  });

  it('passes null through for an empty answer, for routes whose contract allows it', async () => {
    const { client } = clientAnswering(204, '');
    await expect(client.delete('/api/courses/c1', z.null())).resolves.toBeNull();
  });
});

import type * as z from 'zod';
import { errorBody, type ErrorCode } from '@contracts/common.ts';
import { ApiError } from './api-error.ts';
import { getAccessToken } from './auth.ts';

/** For answers that are not the contract's error body (a proxy's 502 page, a gateway timeout). */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 502 || status === 503 || status === 504) return 'UPSTREAM_FAILED';
  return 'INTERNAL';
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function toApiError(res: Response): Promise<ApiError> {
  const parsed = errorBody.safeParse(parseJson(await res.text().catch(() => '')));
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new ApiError(res.status, code, message, details);
  }
  return new ApiError(res.status, codeForStatus(res.status), `Request failed (${res.status} ${res.statusText})`.trim());
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * The answer to this very request, already on its way (the page head's early GET /api/me, see
   * lib/stored-session.ts): adopted instead of sending the request again, then handled like any other.
   */
  sent?: Promise<Response>;
}

export interface ApiClientDeps {
  getToken: () => Promise<string | undefined>;
  fetch: typeof fetch;
}

/**
 * The one HTTP client of the web app. Same-origin `/api/...` (CloudFront or the Vite proxy route it), bearer
 * access token when signed in, JSON both ways, and every answer validated against the contract schema the
 * caller names, so a screen only ever sees contract types or an ApiError (`getFile` alone answers a file as is).
 */
export function createApiClient(deps: ApiClientDeps) {
  async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    const token = await deps.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const init: RequestInit = { method, headers, signal: options.signal ?? null };
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    return deps.fetch(path, init);
  }

  /** A successful answer, or the ApiError of a refusal or of a server that could not be reached. */
  async function answer(method: string, path: string, options: RequestOptions): Promise<Response> {
    if (!path.startsWith('/api/')) throw new Error(`api-client: path must start with /api/, got ${path}`);
    let res: Response;
    try {
      res = await (options.sent ?? send(method, path, options));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'NETWORK_FAILED', 'The server could not be reached. Check your connection and try again.');
    }
    if (!res.ok) throw await toApiError(res);
    return res;
  }

  async function request<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    options: RequestOptions = {},
  ): Promise<z.infer<S>> {
    const res = await answer(method, path, options);
    const data = schema.safeParse(parseJson(await res.text()));
    if (!data.success) {
      throw new ApiError(res.status, 'INVALID_RESPONSE', `Unexpected answer from ${method} ${path}`, data.error.issues);
    }
    return data.data;
  }

  return {
    get: <S extends z.ZodType>(path: string, schema: S, options?: Omit<RequestOptions, 'body'>) =>
      request('GET', path, schema, options),
    post: <S extends z.ZodType>(path: string, schema: S, options?: RequestOptions) =>
      request('POST', path, schema, options),
    put: <S extends z.ZodType>(path: string, schema: S, options?: RequestOptions) =>
      request('PUT', path, schema, options),
    patch: <S extends z.ZodType>(path: string, schema: S, options?: RequestOptions) =>
      request('PATCH', path, schema, options),
    delete: <S extends z.ZodType>(path: string, schema: S, options?: RequestOptions) =>
      request('DELETE', path, schema, options),
    /**
     * A file the API answers (a CSV export), as a Blob for the browser to save: the same token and the same ApiError
     * on a refusal, but no JSON and no schema. `accept` names the type asked for.
     */
    getFile: async (path: string, accept: string, options: Omit<RequestOptions, 'body' | 'headers'> = {}): Promise<Blob> =>
      (await answer('GET', path, { ...options, headers: { Accept: accept } })).blob(),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

// `(...args) => fetch(...args)` rather than `fetch` itself: a detached window.fetch throws "Illegal invocation".
export const apiClient: ApiClient = createApiClient({ getToken: getAccessToken, fetch: (...args) => fetch(...args) });

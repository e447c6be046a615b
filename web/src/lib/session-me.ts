import { meResponse, type MeResponse } from '@contracts/me.ts';
import { apiClient } from './api-client.ts';

// Its own module, imported lazily by session.ts: the contract brings the full zod, which must stay out of the
// initial chunk (docs/decisions/0004).
export function fetchMe(signal?: AbortSignal, sent?: Promise<Response>): Promise<MeResponse> {
  return apiClient.get('/api/me', meResponse, { ...(signal ? { signal } : {}), ...(sent ? { sent } : {}) });
}

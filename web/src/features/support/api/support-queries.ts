import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionResponse } from '@contracts/billing.ts';
import {
  adminSupportList,
  createdSupportRequest,
  supportReplied,
  supportRequest,
  supportRequestList,
  type SupportFollowUpBody,
  type CreateSupportRequestBody,
  type SupportReplyBody,
  type SupportStatus,
} from '@contracts/support.ts';
import { apiClient } from '@/lib/api-client.ts';

const requestsKey = ['support', 'requests'] as const;
const inboxKey = ['support', 'inbox'] as const;

const withCursor = (path: string, cursor: string | undefined) => (cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path);

/** GET /api/support/requests: the creator's requests with their replies, newest first, page after page. */
export const supportRequestsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: requestsKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(withCursor('/api/support/requests', pageParam), supportRequestList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** GET /api/me/subscription: whether the creator is on a plan with priority support (the billing feature's cache key). */
export const planQueryOptions = () =>
  queryOptions({
    queryKey: ['billing', 'subscription'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/me/subscription', subscriptionResponse, { signal }),
  });

/** POST /api/support/requests (one Idempotency-Key per send, so a retried send makes one request); the list reloads. */
export function useCreateSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: CreateSupportRequestBody; key: string }) =>
      apiClient.post('/api/support/requests', createdSupportRequest, { body, headers: { 'Idempotency-Key': key } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestsKey }),
  });
}

/** GET /api/admin/support?status=: the inbox of one status, priority first, then oldest first. */
export const supportInboxQueryOptions = (status: SupportStatus) =>
  infiniteQueryOptions({
    queryKey: [...inboxKey, status] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(withCursor(`/api/admin/support?status=${status}`, pageParam), adminSupportList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** POST /api/admin/support/{requestId}/replies (one Idempotency-Key per reply, kept across its retries): both lists reload (a closed request moves from Open to Closed). */
export function useReplySupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, body, key }: { requestId: string; body: SupportReplyBody; key: string }) =>
      apiClient.post(`/api/admin/support/${encodeURIComponent(requestId)}/replies`, supportReplied, { body, headers: { 'Idempotency-Key': key } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKey }),
  });
}

/** POST /api/support/requests/{requestId}/replies: the creator's own message on their open request; the list reloads. */
export function useFollowUpSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, body, key }: { requestId: string; body: SupportFollowUpBody; key: string }) =>
      apiClient.post(`/api/support/requests/${encodeURIComponent(requestId)}/replies`, supportRequest, { body, headers: { 'Idempotency-Key': key } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestsKey }),
  });
}

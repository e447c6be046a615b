import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
import { apiKeyList, createdApiKey, type ApiKeyList, type CreateApiKeyBody } from '@contracts/api-keys.ts';
import {
  createdWebhookEndpoint,
  webhookDeliveryPage,
  webhookEndpointList,
  webhookEndpointView,
  type CreateWebhookEndpointBody,
  type WebhookEndpointView,
} from '@contracts/webhooks.ts';
import { apiClient } from '@/lib/api-client.ts';

const apiKeysKey = ['developers', 'api-keys'] as const;
const endpointsKey = ['developers', 'webhook-endpoints'] as const;
const deliveriesKey = (endpointId: string) => ['developers', 'webhook-endpoints', endpointId, 'deliveries'] as const;
const endpointPath = (endpointId: string): string => `/api/webhook-endpoints/${encodeURIComponent(endpointId)}`;

/** GET /api/api-keys: the creator's keys (never the keys themselves: a prefix and the last four characters). */
export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: apiKeysKey, queryFn: ({ signal }) => apiClient.get('/api/api-keys', apiKeyList, { signal }) });

/** POST /api/api-keys: 201 with the key, shown this once; the list is loaded again (it shows the prefix and last4). */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => apiClient.post('/api/api-keys', createdApiKey, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

/** DELETE /api/api-keys/{keyId} (204): the key is refused from the next call, and leaves the list. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiClient.delete(`/api/api-keys/${encodeURIComponent(keyId)}`, z.null()),
    onSuccess: (_, keyId) => queryClient.setQueryData<ApiKeyList>(apiKeysKey, (data) => data && { items: data.items.filter((key) => key.id !== keyId) }),
  });
}

/** GET /api/webhook-endpoints: the creator's endpoints (never their secrets). */
export const webhookEndpointsQueryOptions = () =>
  queryOptions({ queryKey: endpointsKey, queryFn: ({ signal }) => apiClient.get('/api/webhook-endpoints', webhookEndpointList, { signal }) });

/** POST /api/webhook-endpoints: 201 with the signing secret, shown this once; the list is loaded again. */
export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookEndpointBody) => apiClient.post('/api/webhook-endpoints', createdWebhookEndpoint, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey }),
  });
}

/** DELETE /api/webhook-endpoints/{endpointId} (204): it is told of nothing more, and leaves the list. */
export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => apiClient.delete(endpointPath(endpointId), z.null()),
    onSuccess: (_, endpointId) =>
      queryClient.setQueryData<{ items: WebhookEndpointView[] }>(endpointsKey, (data) => data && { items: data.items.filter((e) => e.id !== endpointId) }),
  });
}

/** POST /api/webhook-endpoints/{endpointId}/enable: a disabled endpoint is sent events again; the list shows it so. */
export function useEnableWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => apiClient.post(`${endpointPath(endpointId)}/enable`, webhookEndpointView),
    onSuccess: (enabled) =>
      queryClient.setQueryData<{ items: WebhookEndpointView[] }>(endpointsKey, (data) => data && { items: data.items.map((e) => (e.id === enabled.id ? enabled : e)) }),
  });
}

/** The URL of one page of an endpoint's deliveries (newest first). */
export const deliveriesUrl = (endpointId: string, cursor?: string): string =>
  `${endpointPath(endpointId)}/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;

/** GET .../deliveries?cursor=: an endpoint's delivery log, page after page ('Load more' follows `nextCursor`). */
export const deliveriesQueryOptions = (endpointId: string) =>
  infiniteQueryOptions({
    queryKey: deliveriesKey(endpointId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(deliveriesUrl(endpointId, pageParam), webhookDeliveryPage, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** POST .../deliveries/{deliveryId}/retry (202): the delivery is tried again now; the log is loaded again. */
export function useRetryDelivery(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => apiClient.post(`${endpointPath(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, z.unknown()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointId) }),
  });
}

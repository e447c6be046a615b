import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { integrationsView, integrationTestAnswer, type IntegrationProvider, type SaveIntegrationsBody } from '@contracts/integrations.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { integrationsMessages as m } from '../integrations-messages.ts';

const path = '/api/integrations';

/** GET /api/integrations: the creator's settings (all off and empty before the first save); secrets only as "set". */
export const integrationsQueryOptions = () =>
  queryOptions({
    queryKey: ['integrations'] as const,
    queryFn: ({ signal }) => apiClient.get(path, integrationsView, { signal }),
  });

/**
 * PUT /api/integrations. The answer replaces the cached settings (the status card follows it). Toasts as SPEC.md
 * section 8 says; a signed-out creator (401) is told 'User not authenticated'.
 */
export function useSaveIntegrations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveIntegrationsBody) => apiClient.put(path, integrationsView, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(integrationsQueryOptions().queryKey, saved);
      toast.success(m.saved.title, { description: m.saved.description });
    },
    onError: (error) => {
      const message = error instanceof ApiError && error.status === 401 ? m.notAuthenticated : m.saveFailed;
      toast.error(message.title, { description: message.description });
    },
  });
}

/**
 * POST /api/integrations/{provider}/test: a real check of the saved settings. The answer (`{ok, error?}`) or the API's
 * error (502 when the provider is down) is the caller's to show; either way the settings are read again, since the
 * server stored the outcome as the provider's status.
 */
export function useTestIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: IntegrationProvider) => apiClient.post(`${path}/${provider}/test`, integrationTestAnswer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey }),
  });
}

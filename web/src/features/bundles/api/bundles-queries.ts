import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
import { bundle, bundleList, type Bundle, type BundleList, type CreateBundleBody, type UpdateBundleBody } from '@contracts/bundles.ts';
import { apiClient } from '@/lib/api-client.ts';

const bundlesKey = ['bundles'] as const;
const bundlePath = (id: string): string => `/api/bundles/${encodeURIComponent(id)}`;

/** GET /api/bundles: the creator's bundles, newest first (at most 100: one answer, no pages). */
export const bundlesQueryOptions = () =>
  queryOptions({
    queryKey: bundlesKey,
    queryFn: ({ signal }) => apiClient.get('/api/bundles', bundleList, { signal }),
  });

/** The cached list with `change` applied, when it is loaded: the server's answer goes straight in, no refetch. */
function useEditList() {
  const queryClient = useQueryClient();
  return (change: (items: Bundle[]) => Bundle[]) => queryClient.setQueryData<BundleList>(bundlesKey, (data) => data && { items: change(data.items) });
}

/** POST /api/bundles: the new bundle leads the list (400 naming courses that are not the creator's published ones; 409 at 100). */
export function useCreateBundle() {
  const edit = useEditList();
  return useMutation({
    mutationFn: (body: CreateBundleBody) => apiClient.post('/api/bundles', bundle, { body }),
    onSuccess: (created) => edit((items) => [created, ...items.filter((b) => b.id !== created.id)]),
  });
}

/** PATCH /api/bundles/{id}: the answer replaces its row in place. */
export function useUpdateBundle() {
  const edit = useEditList();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateBundleBody }) => apiClient.patch(bundlePath(id), bundle, { body }),
    onSuccess: (updated) => edit((items) => items.map((b) => (b.id === updated.id ? updated : b))),
  });
}

/** DELETE /api/bundles/{id} (204): the row leaves the list. */
export function useDeleteBundle() {
  const edit = useEditList();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete(bundlePath(id), z.null()),
    onSuccess: (_, id) => edit((items) => items.filter((b) => b.id !== id)),
  });
}

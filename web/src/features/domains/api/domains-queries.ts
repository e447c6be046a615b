import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
import { domainList, domainView, type AddDomainBody, type DomainList } from '@contracts/domains.ts';
import { apiClient } from '@/lib/api-client.ts';

const domainsKey = ['domains'] as const;
const domainPath = (hostname: string): string => `/api/domains/${encodeURIComponent(hostname)}`;

/** GET /api/domains: the creator's domains, where each stands. */
export const domainsQueryOptions = () => queryOptions({ queryKey: domainsKey, queryFn: ({ signal }) => apiClient.get('/api/domains', domainList, { signal }) });

/** POST /api/domains: 201 with the records to set; the list is loaded again. */
export function useAddDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddDomainBody) => apiClient.post('/api/domains', domainView, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainsKey }),
  });
}

/** POST /api/domains/{hostname}/verify: the domain as far as it moved, put in the list as it is. */
export function useVerifyDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hostname: string) => apiClient.post(`${domainPath(hostname)}/verify`, domainView),
    onSuccess: (checked) =>
      queryClient.setQueryData<DomainList>(domainsKey, (data) => data && { items: data.items.map((d) => (d.hostname === checked.hostname ? checked : d)) }),
  });
}

/** DELETE /api/domains/{hostname} (204): it leaves the list. */
export function useRemoveDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hostname: string) => apiClient.delete(domainPath(hostname), z.null()),
    onSuccess: (_, hostname) => queryClient.setQueryData<DomainList>(domainsKey, (data) => data && { items: data.items.filter((d) => d.hostname !== hostname) }),
  });
}

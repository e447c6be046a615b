import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
import {
  memberList,
  membership,
  membershipList,
  type CreateMembershipBody,
  type Membership,
  type MembershipList,
  type UpdateMembershipBody,
} from '@contracts/memberships.ts';
import { apiClient } from '@/lib/api-client.ts';

const membershipsKey = ['memberships'] as const;
const membershipPath = (id: string): string => `/api/memberships/${encodeURIComponent(id)}`;

/** GET /api/memberships: the creator's memberships, newest first (at most 20: one answer, no pages). */
export const membershipsQueryOptions = () =>
  queryOptions({
    queryKey: membershipsKey,
    queryFn: ({ signal }) => apiClient.get('/api/memberships', membershipList, { signal }),
  });

/** GET /api/memberships/{id}/members: one subscription a row, a page at a time. */
export const membersQueryOptions = (membershipId: string) =>
  infiniteQueryOptions({
    queryKey: [...membershipsKey, membershipId, 'members'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiClient.get(`${membershipPath(membershipId)}/members${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`, memberList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** The cached list with `change` applied, when it is loaded: the server's answer goes straight in, no refetch. */
function useEditList() {
  const queryClient = useQueryClient();
  return (change: (items: Membership[]) => Membership[]) => queryClient.setQueryData<MembershipList>(membershipsKey, (data) => data && { items: change(data.items) });
}

/** POST /api/memberships (Pro): the new membership leads the list (400 naming courses that are not the creator's published ones; 409 at 20). */
export function useCreateMembership() {
  const edit = useEditList();
  return useMutation({
    mutationFn: (body: CreateMembershipBody) => apiClient.post('/api/memberships', membership, { body }),
    onSuccess: (created) => edit((items) => [created, ...items.filter((m) => m.id !== created.id)]),
  });
}

/** PATCH /api/memberships/{id}: the answer replaces its row in place. */
export function useUpdateMembership() {
  const edit = useEditList();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateMembershipBody }) => apiClient.patch(membershipPath(id), membership, { body }),
    onSuccess: (updated) => edit((items) => items.map((m) => (m.id === updated.id ? updated : m))),
  });
}

/** DELETE /api/memberships/{id} (204): the row leaves the list. */
export function useDeleteMembership() {
  const edit = useEditList();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete(membershipPath(id), z.null()),
    onSuccess: (_, id) => edit((items) => items.filter((m) => m.id !== id)),
  });
}

import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminUser, adminUserList, type AdminUser, type CreateUserBody, type UpdateUserBody } from '@contracts/admin-users.ts';
import type { Role } from '@contracts/common.ts';
import { apiClient } from '@/lib/api-client.ts';

/** The URL of one page of a role's users (newest first). */
export function adminUsersUrl(role: Role, cursor?: string): string {
  const query = new URLSearchParams({ role });
  if (cursor) query.set('cursor', cursor);
  return `/api/admin/users?${query.toString()}`;
}

/** GET /api/admin/users, page after page ('Load more' follows `nextCursor`); one cache key per role. */
export const adminUsersQueryOptions = (role: Role) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'users', role] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(adminUsersUrl(role, pageParam), adminUserList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** POST /api/admin/users (201): the new account's role list is read again, so it shows first. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUserBody) => apiClient.post('/api/admin/users', adminUser, { body }),
    onSuccess: (user) => queryClient.invalidateQueries({ queryKey: adminUsersQueryOptions(user.role).queryKey }),
  });
}

/**
 * PATCH /api/admin/users/{userId} `{disabled?, role?}`: the account is turned off (no sign-in; its sessions end) or on
 * again, or moved to another role. A switch changes its row in place (the list keeps its pages); a new role moves it
 * from one role's list to the other's, so both are read again; the platform figures are read again either way.
 */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ user, changes }: { user: AdminUser; changes: UpdateUserBody }) =>
      apiClient.patch(`/api/admin/users/${encodeURIComponent(user.id)}`, adminUser, { body: changes }),
    onSuccess: (updated, { user }) => {
      if (updated.role === user.role) {
        queryClient.setQueryData(adminUsersQueryOptions(updated.role).queryKey, (data) =>
          data && { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((u) => (u.id === updated.id ? updated : u)) })) },
        );
      } else {
        void queryClient.invalidateQueries({ queryKey: adminUsersQueryOptions(user.role).queryKey });
        void queryClient.invalidateQueries({ queryKey: adminUsersQueryOptions(updated.role).queryKey });
      }
      void queryClient.invalidateQueries({ queryKey: ['admin', 'stats'] });
    },
  });
}

import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { avatarUpload, ownPublicProfile, publicProfile, type PublicProfile, type PublicProfileBody } from '@contracts/storefront.ts';
import { apiClient } from '@/lib/api-client.ts';
import { putToBucket } from '@/lib/bucket-upload.ts';

const PROFILE_PATH = '/api/creator/public-profile';

/** GET /api/creator/public-profile: the creator's public profile, null before the first save. */
export const ownPublicProfileQueryOptions = () =>
  queryOptions({
    queryKey: ['public-profile'] as const,
    queryFn: ({ signal }) => apiClient.get(PROFILE_PATH, ownPublicProfile, { signal }),
  });

/** PUT /api/creator/public-profile; the answer replaces the cached profile. */
export function useSavePublicProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PublicProfileBody) => apiClient.put(PROFILE_PATH, publicProfile, { body }),
    onSuccess: (saved: PublicProfile) => queryClient.setQueryData(ownPublicProfileQueryOptions().queryKey, saved),
  });
}

/**
 * A new picture: the API signs a PUT for its type and exact size, then the browser sends the bytes straight to the
 * files bucket. Answers the id to save the profile with.
 */
export async function uploadAvatar(file: File, signal?: AbortSignal): Promise<string> {
  const upload = await apiClient.post(`${PROFILE_PATH}/avatar`, avatarUpload, { body: { contentType: file.type, size: file.size }, ...(signal ? { signal } : {}) });
  await putToBucket(upload, file, 'picture', signal);
  return upload.avatarId;
}

import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { avatarUpload, ownPublicProfile, publicProfile, type PublicProfile, type PublicProfileBody } from '@contracts/storefront.ts';
import { ApiError } from '@/lib/api-error.ts';
import { apiClient } from '@/lib/api-client.ts';

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
  let res: Response;
  try {
    res = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: file, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_FAILED', 'The picture could not be uploaded. Check your connection and try again.');
  }
  if (!res.ok) throw new ApiError(res.status, 'UPSTREAM_FAILED', 'The picture could not be uploaded. Try again.');
  return upload.avatarId;
}

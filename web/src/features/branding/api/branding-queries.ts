import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { brandingAnswer, brandingView, logoUpload, type BrandingBody, type BrandingView } from '@contracts/branding.ts';
import { apiClient } from '@/lib/api-client.ts';
import { putToBucket } from '@/lib/bucket-upload.ts';

const BRANDING_PATH = '/api/branding';

/** GET /api/branding: the creator's school branding, null before the first save. */
export const brandingQueryOptions = () =>
  queryOptions({ queryKey: ['branding'] as const, queryFn: ({ signal }) => apiClient.get(BRANDING_PATH, brandingAnswer, { signal }) });

/** PUT /api/branding; the answer replaces the cached branding. */
export function useSaveBranding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BrandingBody) => apiClient.put(BRANDING_PATH, brandingView, { body }),
    onSuccess: (saved: BrandingView) => queryClient.setQueryData(brandingQueryOptions().queryKey, saved),
  });
}

/** A new logo: the API signs a PUT for its type and exact size, the browser sends it to the bucket. Answers its id. */
export async function uploadLogo(file: File, signal?: AbortSignal): Promise<string> {
  const upload = await apiClient.post(`${BRANDING_PATH}/logo/uploads`, logoUpload, { body: { contentType: file.type, size: file.size }, ...(signal ? { signal } : {}) });
  await putToBucket(upload, file, 'logo', signal);
  return upload.fileId;
}

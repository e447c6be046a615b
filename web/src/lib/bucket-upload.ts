import { ApiError } from '@/lib/api-error.ts';

/**
 * The browser's PUT of a picture straight to the files bucket, through the presigned URL the API signed for its type
 * and exact size (an avatar, a school's logo). A network failure or a refusal is an ApiError the form can show; an
 * abort is rethrown as it is.
 */
export async function putToBucket(upload: { uploadUrl: string; headers: Record<string, string> }, file: File, what: string, signal?: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: file, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_FAILED', `The ${what} could not be uploaded. Check your connection and try again.`);
  }
  if (!res.ok) throw new ApiError(res.status, 'UPSTREAM_FAILED', `The ${what} could not be uploaded. Try again.`);
}

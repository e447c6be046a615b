import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod';
import {
  courseFile,
  fileUrlResponse,
  partUrlsResponse,
  startUploadBody,
  startUploadResponse,
  uploadedPartsResponse,
  type FileKind,
  type StartUploadBody,
} from '@contracts/files.ts';
import { apiClient } from '@/lib/api-client.ts';
import type { UploadApi } from '@/lib/multipart-upload.ts';

// The creator's course files (docs/api.md "Course files"): start an upload, the calls the uploader makes for one
// file, its short-lived preview URL, deleting it.

const coursePath = (courseId: string) => `/api/courses/${encodeURIComponent(courseId)}`;
const filePath = (courseId: string, fileId: string) => `${coursePath(courseId)}/files/${encodeURIComponent(fileId)}`;
const anyAnswer = z.unknown();

/** What the file inputs accept (the contract's types, by extension too: some systems give no MIME type). */
export const ACCEPT: Record<FileKind, string> = {
  video: '.mp4,.webm,video/mp4,video/webm',
  attachment: '.pdf,.png,.jpg,.jpeg,.gif,.webp,application/pdf,image/png,image/jpeg,image/gif,image/webp',
};

/** The start's body for a picked file, or the contract's own message for a wrong type or size (checked before any request). */
export function checkFile(kind: FileKind, file: File): { body: StartUploadBody } | { error: string } {
  const parsed = startUploadBody.safeParse({ kind, name: file.name, contentType: file.type, size: file.size });
  return parsed.success ? { body: parsed.data } : { error: parsed.error.issues[0]?.message ?? 'This file cannot be uploaded.' };
}

/** POST /api/courses/{c}/lessons/{l}/files: the file (status 'uploading') and how to cut it. */
export const startUpload = (courseId: string, lessonId: string, body: StartUploadBody) =>
  apiClient.post(`${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}/files`, startUploadResponse, { body });

/** The server calls of one file's upload, for lib/multipart-upload.ts. */
export const uploadApiFor = (courseId: string, fileId: string): UploadApi => ({
  partUrls: (partNumbers) => apiClient.post(`${filePath(courseId, fileId)}/parts`, partUrlsResponse, { body: { partNumbers } }),
  uploadedParts: () => apiClient.get(`${filePath(courseId, fileId)}/parts`, uploadedPartsResponse),
  complete: (body) => apiClient.post(`${filePath(courseId, fileId)}/complete`, courseFile, { body }),
  remove: () => deleteFile(courseId, fileId),
});

/** DELETE /api/courses/{c}/files/{f}: an upload's abort, a file's removal. */
export const deleteFile = async (courseId: string, fileId: string): Promise<void> => {
  await apiClient.delete(filePath(courseId, fileId), anyAnswer);
};

/**
 * GET /api/courses/{c}/files/{f}/url: the creator's preview. Kept well inside the URL's life (15 minutes), so a
 * preview opened again asks for a fresh one.
 */
export const fileUrlQueryOptions = (courseId: string, fileId: string) =>
  queryOptions({
    queryKey: ['courses', 'file-url', courseId, fileId] as const,
    queryFn: ({ signal }) => apiClient.get(`${filePath(courseId, fileId)}/url`, fileUrlResponse, { signal }),
    staleTime: 5 * 60_000,
    gcTime: 5 * 60_000,
  });

import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Course files (issue 10 point 2; docs/api.md "Course files"): a lesson's uploaded video and its attachments, kept
 * private in S3. Every upload is an S3 multipart upload, whatever its size: the server starts it with the declared
 * content type, hands out presigned UploadPart URLs whose Content-Length is signed (so the size is fixed part by part),
 * and on completion checks the stored object's size and type again (HeadObject) before the file is 'ready'. One flow
 * gives the progress bar and resume-after-a-dropped-connection to every file, from a 20 KB PDF to a 2 GB video.
 */

export const fileKinds = ['video', 'attachment'] as const;
export const fileKind = z.enum(fileKinds);
export type FileKind = z.infer<typeof fileKind>;

export const VIDEO_CONTENT_TYPES = ['video/mp4', 'video/webm'] as const;
export const ATTACHMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const CONTENT_TYPES_BY_KIND: Record<FileKind, readonly string[]> = {
  video: VIDEO_CONTENT_TYPES,
  attachment: ATTACHMENT_CONTENT_TYPES,
};

const MiB = 1024 * 1024;
/** The largest file of each kind, in bytes: a video up to 2 GB, an attachment up to 50 MB. */
export const MAX_FILE_BYTES: Record<FileKind, number> = { video: 2048 * MiB, attachment: 50 * MiB };
/** Every part but the last has exactly this size (S3's minimum is 5 MiB); 2 GB is 256 parts. */
export const UPLOAD_PART_BYTES = 8 * MiB;
/** At most this many part URLs per request (the browser asks for more as it goes). */
export const PART_URLS_MAX = 20;
/** How long a presigned UploadPart URL works. */
export const PART_URL_TTL_SECONDS = 15 * 60;
/** How long a signed download URL works (the player asks again when a long video outlives it). */
export const DOWNLOAD_URL_TTL_SECONDS = 15 * 60;
/** Attachments per lesson. */
export const ATTACHMENTS_PER_LESSON_MAX = 20;
export const FILE_NAME_MAX = 200;

/** How many parts a file of `size` bytes is uploaded in (at least one). */
export const partCount = (size: number): number => Math.max(1, Math.ceil(size / UPLOAD_PART_BYTES));
/** The exact byte size of part `partNumber` (1-based) of a file of `size` bytes. */
export const partSize = (size: number, partNumber: number): number =>
  partNumber < partCount(size) ? UPLOAD_PART_BYTES : size - UPLOAD_PART_BYTES * (partCount(size) - 1);

export const fileStatuses = ['uploading', 'ready'] as const;

/** A lesson's file as the course editor and the player list it (no URL: those are asked for, short-lived). */
export const courseFile = z.object({
  id: z.string(),
  lessonId: z.string(),
  kind: fileKind,
  /** The name the creator's file had (shown, and given to downloads). */
  name: z.string(),
  contentType: z.string(),
  /** Bytes. */
  size: z.number().int().min(0),
  status: z.enum(fileStatuses),
  createdAt: isoDate,
});
export type CourseFile = z.infer<typeof courseFile>;

/**
 * POST /api/courses/{courseId}/lessons/{lessonId}/files: start an upload. The type must be one of its kind's types and
 * the size within its kind's limit (400 otherwise); a video goes on a video lesson only (400), which has one video (a
 * new one replaces the old when it completes).
 */
export const startUploadBody = z
  .strictObject({
    kind: fileKind,
    name: z.string().trim().min(1, 'Name the file.').max(FILE_NAME_MAX),
    contentType: z.string().max(100),
    size: z.number().int().min(1, 'The file is empty.'),
  })
  .refine((b) => CONTENT_TYPES_BY_KIND[b.kind].includes(b.contentType), {
    message: 'Upload an .mp4 or .webm video, or a PDF or image (PNG, JPEG, GIF, WebP) attachment.',
    path: ['contentType'],
  })
  .refine((b) => b.size <= MAX_FILE_BYTES[b.kind], { message: 'A video can be up to 2 GB and an attachment up to 50 MB.', path: ['size'] });
export type StartUploadBody = z.infer<typeof startUploadBody>;

/** 201 of the start: the file (status 'uploading') and how to cut it. */
export const startUploadResponse = z.object({
  file: courseFile,
  partSize: z.number().int(),
  partCount: z.number().int().min(1),
});
export type StartUploadResponse = z.infer<typeof startUploadResponse>;

/** POST /api/courses/{courseId}/files/{fileId}/parts: presigned PUT URLs for these parts (1-based). */
export const partUrlsBody = z.strictObject({
  partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(PART_URLS_MAX),
});
export type PartUrlsBody = z.infer<typeof partUrlsBody>;
export const partUrlsResponse = z.object({
  /** PUT each part's exact bytes to its URL with no other header; S3 answers with the part's ETag header. */
  parts: z.array(z.object({ partNumber: z.number().int(), url: z.url(), size: z.number().int() })),
  expiresAt: isoDate,
});
export type PartUrlsResponse = z.infer<typeof partUrlsResponse>;

/** GET /api/courses/{courseId}/files/{fileId}/parts: the parts S3 already holds, for resuming after a dropped connection. */
export const uploadedPartsResponse = z.object({
  parts: z.array(z.object({ partNumber: z.number().int(), etag: z.string(), size: z.number().int() })),
});
export type UploadedPartsResponse = z.infer<typeof uploadedPartsResponse>;

/**
 * POST /api/courses/{courseId}/files/{fileId}/complete: every part once, with the ETag S3 gave it. The server completes
 * the upload, checks size and type against what was declared (a mismatch deletes the object: 400), and answers the
 * ready file. Completing a ready file again answers it again (idempotent).
 */
export const completeUploadBody = z.strictObject({
  parts: z
    .array(z.strictObject({ partNumber: z.number().int().min(1).max(10_000), etag: z.string().min(1).max(200) }))
    .min(1)
    .max(10_000),
});
export type CompleteUploadBody = z.infer<typeof completeUploadBody>;

/**
 * A short-lived signed GET: GET /api/courses/{courseId}/files/{fileId}/url (the course's creator) and
 * GET /api/learner/courses/{courseId}/files/{fileId}/url (a learner enrolled in the published course). Attachments
 * download under their name; videos play inline.
 */
export const fileUrlResponse = z.object({ url: z.url(), expiresAt: isoDate });
export type FileUrlResponse = z.infer<typeof fileUrlResponse>;

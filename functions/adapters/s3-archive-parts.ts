import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { s3Client } from '#adapters/s3-file-store.ts';
import { downloadLink } from '#adapters/s3-export-link.ts';
import { EXPORTS_PREFIX } from '#adapters/s3-export-files.ts';
import type { ArchiveParts } from '#core/personal-exports/ports.ts';
import { required } from '#functions/config.ts';

const notFound = (error: unknown): boolean =>
  ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes((error as { name?: string }).name ?? '') || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * The personal data export's ZIP as an S3 multipart upload written across slices (decision 0062), under exports/
 * (capability 'exports'): each call is one request, the core keeps the upload's id and the parts' ETags in the
 * export's item between them. A part written again under its number replaces the one before (S3's rule), so a slice
 * delivered again after a kill rewrites the part it was on. The bytes a slice ends with, short of S3's 5 MiB, wait
 * in an object of their own beside the ZIP (`<key>.carry-<save>`, gone with the prefix's one-day rule); an upload
 * never completed is aborted by the bucket's rule for unfinished uploads (lib/constructs/course-files.ts).
 */
export const s3ArchiveParts = (): ArchiveParts => {
  const Bucket = () => required('FILES_BUCKET');
  const objectKey = (key: string) => `${EXPORTS_PREFIX}${key}`;
  const carryKey = (key: string, version: number) => `${EXPORTS_PREFIX}${key}.carry-${version}`;
  return {
    async begin(key, { contentType }) {
      const { UploadId } = await s3Client().send(new CreateMultipartUploadCommand({ Bucket: Bucket(), Key: objectKey(key), ContentType: contentType }));
      if (!UploadId) throw new Error(`S3 started no multipart upload for ${key}`);
      return UploadId;
    },

    async part(key, UploadId, n, bytes) {
      const { ETag } = await s3Client().send(new UploadPartCommand({ Bucket: Bucket(), Key: objectKey(key), UploadId, PartNumber: n, Body: bytes, ContentLength: bytes.length }));
      if (!ETag) throw new Error(`S3 answered part ${n} of ${key} without an ETag`);
      return ETag;
    },

    async complete(key, UploadId, parts, { fileName, linkSeconds }) {
      const Key = objectKey(key);
      try {
        await s3Client().send(new CompleteMultipartUploadCommand({ Bucket: Bucket(), Key, UploadId, MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) } }));
      } catch (error) {
        // Completed already by a delivery killed before it could make the export ready: the object is there.
        if (!notFound(error)) throw error;
        await s3Client().send(new HeadObjectCommand({ Bucket: Bucket(), Key }));
      }
      const url = await downloadLink(Key, fileName, linkSeconds);
      return { url, expiresAt: new Date(Date.now() + linkSeconds * 1000).toISOString() };
    },

    async abort(key, UploadId) {
      await s3Client().send(new AbortMultipartUploadCommand({ Bucket: Bucket(), Key: objectKey(key), UploadId })).catch(() => undefined);
    },

    async carry(key, version, bytes) {
      await s3Client().send(new PutObjectCommand({ Bucket: Bucket(), Key: carryKey(key, version), Body: bytes, ContentLength: bytes.length, ContentType: 'application/octet-stream' }));
    },

    async carried(key, version) {
      try {
        const { Body } = await s3Client().send(new GetObjectCommand({ Bucket: Bucket(), Key: carryKey(key, version) }));
        return Body ? await Body.transformToByteArray() : undefined;
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
  };
};

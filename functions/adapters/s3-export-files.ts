import { AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#adapters/s3-file-store.ts';
import { required } from '#functions/config.ts';
import { downloadLink } from '#adapters/s3-export-link.ts';
import type { ExportFiles, ExportUpload } from '#core/ports.ts';

/** Where exports go in the files bucket (lib/constructs/app-function.ts grants capability 'exports' this prefix only). */
export const EXPORTS_PREFIX = 'exports/';
/** S3's smallest part but the last: chunks are held until they make one, so memory stays at one part. */
export const EXPORT_PART_BYTES = 5 * 1024 * 1024;
/** How long the download link works (the bucket keeps the file a day). */
const LINK_TTL_SECONDS = 15 * 60;

/**
 * Exports as S3 multipart uploads (issue 28): chunks are buffered up to one part (5 MiB) and sent as UploadPart, the
 * rest as the last part on finish; the answer is a presigned GET that saves the file under its name. A 50,000-row
 * report is ~5 MB: one part of memory, never the whole file.
 */
export const s3ExportFiles = (options: { partBytes?: number } = {}): ExportFiles => ({
  async start(key: string, { contentType, fileName }: { contentType: string; fileName: string }) {
    const linkSeconds = LINK_TTL_SECONDS;
    const partBytes = options.partBytes ?? EXPORT_PART_BYTES;
    const Bucket = required('FILES_BUCKET');
    const Key = `${EXPORTS_PREFIX}${key}`;
    const { UploadId } = await s3Client().send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType: contentType }));
    if (!UploadId) throw new Error(`S3 started no multipart upload for ${Key}`);
    const parts: { PartNumber: number; ETag: string }[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const send = async () => {
      const PartNumber = parts.length + 1;
      const Body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      const { ETag } = await s3Client().send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body, ContentLength: Body.length }));
      if (!ETag) throw new Error(`S3 answered part ${PartNumber} of ${Key} without an ETag`);
      parts.push({ PartNumber, ETag });
    };
    const upload: ExportUpload = {
      async write(chunk: string) {
        const bytes = Buffer.from(chunk, 'utf8');
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= partBytes) await send();
      },
      async finish() {
        // The last part may be small (or the only one; an empty file is one empty part).
        if (pendingBytes > 0 || parts.length === 0) await send();
        await s3Client().send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }));
        const url = await downloadLink(Key, fileName, linkSeconds);
        return { url, expiresAt: new Date(Date.now() + linkSeconds * 1000).toISOString() };
      },
      async abort() {
        await s3Client().send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
      },
    };
    return upload;
  },
});

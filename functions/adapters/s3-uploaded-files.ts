import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#adapters/s3-file-store.ts';
import { required } from '#functions/config.ts';
import type { UploadedFiles } from '#core/personal-exports/ports.ts';

/**
 * A person's uploaded files read back from the files bucket for their data export (issue 37 point 1): the object's
 * body as the stream S3 answers, so a large upload passes into the ZIP chunk by chunk, never whole in memory.
 */
export const s3UploadedFiles = (): UploadedFiles => ({
  async open(key) {
    try {
      const { Body } = await s3Client().send(new GetObjectCommand({ Bucket: required('FILES_BUCKET'), Key: key }));
      return Body as AsyncIterable<Uint8Array> | undefined;
    } catch (error) {
      // An upload started but never sent (its item is written first) has no object: nothing to copy.
      if ((error as { name?: string }).name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
  },
});

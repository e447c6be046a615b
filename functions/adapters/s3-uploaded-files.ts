import { DeleteObjectsCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#adapters/s3-file-store.ts';
import { required } from '#functions/config.ts';
import type { UploadedFiles } from '#core/personal-exports/ports.ts';

/**
 * A person's uploaded files read back from the files bucket for their data export (issue 37 point 1): the object's
 * body as the stream S3 answers, so a large upload passes into the ZIP chunk by chunk, never whole in memory.
 */
export const s3UploadedFiles = (): UploadedFiles => ({
  async open(key, from = 0) {
    try {
      // From a byte on (a file an export's slice ended in): a Range request, so the bytes before it are not read again.
      const { Body } = await s3Client().send(new GetObjectCommand({ Bucket: required('FILES_BUCKET'), Key: key, ...(from > 0 ? { Range: `bytes=${from}-` } : {}) }));
      return Body as AsyncIterable<Uint8Array> | undefined;
    } catch (error) {
      // Nothing after `from`: the slice ended right after the file's last byte.
      if (from > 0 && ((error as { name?: string }).name === 'InvalidRange' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416)) return (async function* () {})();
      // An upload started but never sent (its item is written first) has no object: nothing to copy.
      if ((error as { name?: string }).name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
  },
});

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

/**
 * A person's handed-in files deleted from the files bucket when their account is (issue 37 point 2; capability
 * 'files:erase-submissions', which reaches only submissions' keys). A key already gone counts as deleted (S3 answers
 * it so), so a rerun after a kill is harmless; a key S3 kept fails the step, to be tried again.
 */
export const removeUploads = async (keys: readonly string[]): Promise<void> => {
  for (let start = 0; start < keys.length; start += DELETE_BATCH) {
    const batch = keys.slice(start, start + DELETE_BATCH);
    const { Errors } = await s3Client().send(new DeleteObjectsCommand({ Bucket: required('FILES_BUCKET'), Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
    if (Errors?.length) throw new Error(`S3 kept ${Errors.length} of ${batch.length} objects: ${Errors.map((e) => `${e.Key} ${e.Code}`).join(', ')}`);
  }
};

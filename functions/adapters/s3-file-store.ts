import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListPartsCommand,
  type ListPartsCommandOutput,
  S3Client,
} from '@aws-sdk/client-s3';
import { s3FileLinks, s3ImageLinks } from '#adapters/s3-presigner.ts';
import { awsClientOptions, clientPolicies } from '#adapters/client-policy.ts';
import { traced } from '#adapters/tracer.ts';
import { config, required } from '#functions/config.ts';
import type { FileStore, UploadedPart } from '#core/files/ports.ts';
import type { ImageStore } from '#core/ports.ts';

let client: S3Client | undefined;

/**
 * The S3 client, made once. Checksums only WHEN_REQUIRED: with the SDK's default, presigned UploadPart URLs would carry
 * the checksum of an empty body and streamed bodies their aws-chunked framing (docs: TOOLCHAIN "Files"). Locally
 * (FILES_ENDPOINT set) the emulator wants path-style addressing and its fixed S3RVER key; in the cloud the function's
 * role signs. Timeouts and retries: adapters/client-policy.ts (control calls only: file bodies never pass through here).
 */
export const s3Client = (): S3Client => {
  if (!client) {
    const { AWS_REGION, FILES_ENDPOINT } = config();
    client = traced(
      new S3Client({
        region: AWS_REGION,
        ...awsClientOptions(clientPolicies.s3),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        ...(FILES_ENDPOINT
          ? { endpoint: FILES_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }
          : {}),
      }),
    );
  }
  return client;
};

/** S3's error name (the SDK's exceptions carry it as `name`; a 404 on HEAD has no body, only the status). */
const errorName = (error: unknown): string | undefined => (error as { name?: string }).name;
const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isNoSuchUpload = (error: unknown) => errorName(error) === 'NoSuchUpload';

/** S3's refusals of a part list: a part missing or out of order, a wrong ETag, a part under 5 MiB that is not the last. */
const INVALID_PARTS = new Set(['InvalidPart', 'InvalidPartOrder', 'EntityTooSmall', 'MalformedXML']);

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

/** The private files bucket as the FileStore port (S3 in the cloud, s3rver locally). */
export const s3FileStore = (): FileStore => ({
  ...s3FileLinks(),

  async startMultipart(key, contentType) {
    const { UploadId } = await s3Client().send(new CreateMultipartUploadCommand({ Bucket: required('FILES_BUCKET'), Key: key, ContentType: contentType }));
    if (!UploadId) throw new Error(`S3 started no multipart upload for ${key}`);
    return UploadId;
  },

  async listParts(key, uploadId) {
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const page: ListPartsCommandOutput = await s3Client().send(
          new ListPartsCommand({ Bucket: required('FILES_BUCKET'), Key: key, UploadId: uploadId, ...(marker ? { PartNumberMarker: marker } : {}) }),
        );
        for (const part of page.Parts ?? []) {
          if (part.PartNumber !== undefined && part.ETag) parts.push({ partNumber: part.PartNumber, etag: part.ETag, size: part.Size ?? 0 });
        }
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (error) {
      if (isNoSuchUpload(error)) return 'no-upload';
      throw error;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  },

  async complete(key, uploadId, parts) {
    try {
      await s3Client().send(
        new CompleteMultipartUploadCommand({
          Bucket: required('FILES_BUCKET'),
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: [...parts].sort((a, b) => a.partNumber - b.partNumber).map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
      return 'completed';
    } catch (error) {
      if (isNoSuchUpload(error)) return 'no-upload';
      if (INVALID_PARTS.has(errorName(error) ?? '')) return 'invalid-parts';
      throw error;
    }
  },

  async head(key) {
    try {
      const found = await s3Client().send(new HeadObjectCommand({ Bucket: required('FILES_BUCKET'), Key: key }));
      return { size: found.ContentLength ?? 0, contentType: found.ContentType };
    } catch (error) {
      if (errorName(error) === 'NotFound' || errorName(error) === 'NoSuchKey' || statusOf(error) === 404) return undefined;
      throw error;
    }
  },

  async abort(key, uploadId) {
    try {
      await s3Client().send(new AbortMultipartUploadCommand({ Bucket: required('FILES_BUCKET'), Key: key, UploadId: uploadId }));
    } catch (error) {
      if (!isNoSuchUpload(error)) throw error;
    }
  },

  async deleteObjects(keys) {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const { Errors } = await s3Client().send(
        new DeleteObjectsCommand({ Bucket: required('FILES_BUCKET'), Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      if (Errors?.length) throw new Error(`S3 kept ${Errors.length} of ${batch.length} objects: ${Errors.map((e) => `${e.Key} ${e.Code}`).join(', ')}`);
    }
  },
});

/**
 * The creators' pictures in the same private bucket (under `avatars/`, a grant of its own: capabilities 'avatars' and
 * 'avatars:read'). One PutObject each: the presigned PUT signs Content-Type and Content-Length, so S3 takes exactly the
 * declared type and size (s3rver does not check: the use case checks the object again with HeadObject).
 */
export const s3ImageStore = (): ImageStore => ({
  ...s3ImageLinks(),

  head: (key) => s3FileStore().head(key),

  async delete(key) {
    await s3FileStore().deleteObjects([key]);
  },
});

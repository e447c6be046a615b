import { CreateMultipartUploadCommand, DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { s3FileStore } from '#adapters/s3-file-store.ts';
import { PART_URL_TTL_SECONDS, DOWNLOAD_URL_TTL_SECONDS } from '#contracts/files.ts';
import { attachmentDisposition } from '#core/files/files.ts';
import { resetConfig } from '#functions/config.ts';

/**
 * Presigning is pure (no request leaves), so the conditions each URL carries are checked here: the emulator enforces
 * none of them (TOOLCHAIN "Files"), S3 enforces all.
 */
const s3 = mockClient(S3Client);
const env = { FILES_BUCKET: 'unit-files', FILES_ENDPOINT: 'http://127.0.0.1:4569' };

beforeAll(() => {
  Object.assign(process.env, env);
  resetConfig();
});
afterEach(() => s3.reset());
afterAll(() => {
  for (const key of Object.keys(env)) delete process.env[key];
  resetConfig();
  s3.restore();
});

const KEY = 'courses/c1/l1/f1';

describe('the S3 file store', () => {
  it('signs an UploadPart URL over its exact Content-Length, for the part TTL', async () => {
    const url = new URL(await s3FileStore().partUrl(KEY, 'up-1', 2, 8 * 1024 * 1024, PART_URL_TTL_SECONDS));
    expect(url.pathname).toBe(`/unit-files/${KEY}`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(PART_URL_TTL_SECONDS));
    expect(url.searchParams.get('partNumber')).toBe('2');
    expect(url.searchParams.get('uploadId')).toBe('up-1');
    // WHEN_REQUIRED: no checksum of an empty body baked into the URL.
    expect([...url.searchParams.keys()].some((name) => name.toLowerCase().includes('checksum'))).toBe(false);
  });

  it('starts a multipart upload with the declared content type', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-9' });
    expect(await s3FileStore().startMultipart(KEY, 'video/mp4')).toBe('up-9');
    expect(s3.commandCalls(CreateMultipartUploadCommand)[0]?.args[0].input).toMatchObject({ Bucket: 'unit-files', Key: KEY, ContentType: 'video/mp4' });
  });

  it('signs a download URL that makes an attachment download under its name, for the download TTL', async () => {
    const disposition = attachmentDisposition('Knife skills – notes.pdf');
    const url = new URL(await s3FileStore().downloadUrl(KEY, { disposition, ttlSeconds: DOWNLOAD_URL_TTL_SECONDS }));
    expect(url.searchParams.get('response-content-disposition')).toBe(`attachment; filename*=UTF-8''Knife%20skills%20%E2%80%93%20notes.pdf`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(DOWNLOAD_URL_TTL_SECONDS));
  });

  it('deletes objects in batches of 1000', async () => {
    s3.on(DeleteObjectsCommand).resolves({});
    await s3FileStore().deleteObjects(Array.from({ length: 2001 }, (_, i) => `courses/c1/l1/f${i}`));
    expect(s3.commandCalls(DeleteObjectsCommand).map((call) => call.args[0].input.Delete?.Objects?.length)).toEqual([1000, 1000, 1]);
  });

  it('says so when S3 keeps some of the objects', async () => {
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: KEY, Code: 'AccessDenied' }] });
    await expect(s3FileStore().deleteObjects([KEY])).rejects.toThrow(`${KEY} AccessDenied`);
  });
});

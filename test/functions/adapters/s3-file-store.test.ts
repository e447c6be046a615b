import { CreateMultipartUploadCommand, DeleteObjectsCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { s3FileStore, s3ImageStore } from '#adapters/s3-file-store.ts';
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

describe("the S3 image store (the creators' pictures)", () => {
  const AVATAR = 'avatars/c1/01JD0000000000000000000000';

  it('signs a PUT over the declared type and exact size, for its TTL', async () => {
    const url = new URL(await s3ImageStore().uploadUrl(AVATAR, { contentType: 'image/webp', contentLength: 123_456, ttlSeconds: 600 }));
    expect(url.pathname).toBe(`/unit-files/${AVATAR}`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(expect.arrayContaining(['content-type', 'content-length', 'host']));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect([...url.searchParams.keys()].some((name) => name.toLowerCase().includes('checksum'))).toBe(false);
  });

  it('signs a GET as at the start of its window: the same window, the same URL (the browser caches the picture)', async () => {
    const signedAt = new Date('2026-11-25T10:00:00.000Z');
    const first = await s3ImageStore().viewUrl(AVATAR, { ttlSeconds: 3600, signedAt });
    const again = await s3ImageStore().viewUrl(AVATAR, { ttlSeconds: 3600, signedAt });
    expect(again).toBe(first);
    const url = new URL(first);
    expect(url.searchParams.get('X-Amz-Date')).toBe('20261125T100000Z');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(url.searchParams.get('response-cache-control')).toBe('private, max-age=600');
    expect(await s3ImageStore().viewUrl(AVATAR, { ttlSeconds: 3600, signedAt: new Date('2026-11-25T10:10:00.000Z') })).not.toBe(first);
  });

  it('reads the stored size and type back, and nothing for a missing picture', async () => {
    s3.on(HeadObjectCommand, { Key: AVATAR }).resolves({ ContentLength: 42, ContentType: 'image/png' });
    s3.on(HeadObjectCommand, { Key: 'avatars/c1/missing' }).rejects(Object.assign(new Error('NotFound'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } }));
    expect(await s3ImageStore().head(AVATAR)).toEqual({ size: 42, contentType: 'image/png' });
    expect(await s3ImageStore().head('avatars/c1/missing')).toBeUndefined();
  });

  it('deletes one picture', async () => {
    s3.on(DeleteObjectsCommand).resolves({});
    await s3ImageStore().delete(AVATAR);
    expect(s3.commandCalls(DeleteObjectsCommand)[0]?.args[0].input.Delete?.Objects).toEqual([{ Key: AVATAR }]);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortInUseError, portsFromEnv } from '#lib/local/ports.ts';
import { FILES_BUCKET, S3RVER_CREDENTIALS, startS3Emulator, type S3Emulator } from '#lib/local/s3/s3rver.ts';

/** The S3 emulator of the local cloud, on a free port in a temp dir, reached the way the files adapter reaches it. */
let s3: S3Emulator;
let client: S3Client;
let dir: string;
const appOrigin = 'http://localhost:5173';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's3-emulator-'));
  s3 = await startS3Emulator({ port: 0, dir });
  client = new S3Client({
    region: 'eu-west-2',
    endpoint: s3.url,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    // TOOLCHAIN.md: mandatory against s3rver (no aws-chunked bodies, no empty-body checksum in presigned URLs).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the local S3 emulator', () => {
  it('starts with the course-files bucket', async () => {
    expect(s3.bucket).toBe('course-files');
    await expect(client.send(new HeadBucketCommand({ Bucket: FILES_BUCKET }))).resolves.toBeDefined();
  });

  it('stores what a presigned PUT sends and gives it back through a presigned GET', async () => {
    const Key = 'courses/c1/l1/notes.pdf';
    const body = '%PDF-1.7 a small attachment';
    const put = await getSignedUrl(client, new PutObjectCommand({ Bucket: FILES_BUCKET, Key, ContentType: 'application/pdf' }), { expiresIn: 60 });
    const stored = await fetch(put, { method: 'PUT', body, headers: { 'content-type': 'application/pdf' } });
    expect(stored.status).toBe(200);

    const get = await getSignedUrl(client, new GetObjectCommand({ Bucket: FILES_BUCKET, Key }), { expiresIn: 60 });
    const read = await fetch(get);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/pdf');
    expect(await read.text()).toBe(body);
  });

  it('lets a browser on another origin upload a part and read its ETag (preflight, then PUT)', async () => {
    const Key = 'courses/c1/l1/video.mp4';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: FILES_BUCKET, Key, ContentType: 'video/mp4' }));
    const part = Buffer.alloc(1024, 7);
    const url = await getSignedUrl(
      client,
      new UploadPartCommand({ Bucket: FILES_BUCKET, Key, UploadId, PartNumber: 1, ContentLength: part.length }),
      { expiresIn: 60 },
    );

    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: appOrigin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');

    const uploaded = await fetch(url, { method: 'PUT', body: part, headers: { origin: appOrigin } });
    expect(uploaded.status).toBe(200);
    expect(uploaded.headers.get('access-control-allow-origin')).toBe('*');
    expect(uploaded.headers.get('access-control-expose-headers')?.split(',').map((h) => h.trim())).toContain('ETag');
    const ETag = uploaded.headers.get('etag');
    expect(ETag).toMatch(/^"[0-9a-f]{32}"$/);

    await client.send(
      new CompleteMultipartUploadCommand({ Bucket: FILES_BUCKET, Key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: ETag! }] } }),
    );
    const read = await fetch(await getSignedUrl(client, new GetObjectCommand({ Bucket: FILES_BUCKET, Key }), { expiresIn: 60 }));
    expect(Buffer.from(await read.arrayBuffer())).toEqual(part);
  });

  it('lists the parts an unfinished upload holds (resume) and aborts it, which s3rver alone answers 405', async () => {
    const Key = 'courses/c1/l2/big.webm';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: FILES_BUCKET, Key, ContentType: 'video/webm' }));
    const part = Buffer.alloc(2048, 3);
    const { ETag } = await client.send(new UploadPartCommand({ Bucket: FILES_BUCKET, Key, UploadId, PartNumber: 2, Body: part }));

    const listed = await client.send(new ListPartsCommand({ Bucket: FILES_BUCKET, Key, UploadId }));
    expect(listed.Parts?.map((p) => ({ n: p.PartNumber, etag: p.ETag, size: p.Size }))).toEqual([{ n: 2, etag: ETag, size: 2048 }]);
    await expect(client.send(new ListPartsCommand({ Bucket: FILES_BUCKET, Key: 'courses/other', UploadId }))).rejects.toMatchObject({
      name: 'NoSuchUpload',
    });

    await client.send(new AbortMultipartUploadCommand({ Bucket: FILES_BUCKET, Key, UploadId }));
    await expect(client.send(new ListPartsCommand({ Bucket: FILES_BUCKET, Key, UploadId }))).rejects.toMatchObject({ name: 'NoSuchUpload' });
  });

  it('answers a part or a completion of an upload that is gone (completed, aborted) with NoSuchUpload, as S3 does', async () => {
    const Key = 'exports/personal/u1/e1.zip';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: FILES_BUCKET, Key, ContentType: 'application/zip' }));
    const { ETag } = await client.send(new UploadPartCommand({ Bucket: FILES_BUCKET, Key, UploadId, PartNumber: 1, Body: Buffer.from('the whole zip') }));
    const complete = () => client.send(new CompleteMultipartUploadCommand({ Bucket: FILES_BUCKET, Key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } }));
    await complete();
    // A second completion (a delivery killed before it could mark the export ready) and a late part: both 404.
    await expect(complete()).rejects.toMatchObject({ name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } });
    await expect(client.send(new UploadPartCommand({ Bucket: FILES_BUCKET, Key, UploadId, PartNumber: 2, Body: Buffer.from('late') }))).rejects.toMatchObject({ name: 'NoSuchUpload' });
    // The object is the one completed, and nothing of the late part was kept.
    const { Body } = await client.send(new GetObjectCommand({ Bucket: FILES_BUCKET, Key }));
    expect(await Body!.transformToString()).toBe('the whole zip');
  });

  it('listens on 4569 unless S3_PORT moves it', () => {
    expect(portsFromEnv({}).s3).toBe(4569);
    expect(portsFromEnv({ S3_PORT: '14569' }).s3).toBe(14569);
  });

  it('names S3_PORT when its port is taken', async () => {
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as { port: number };
    try {
      const failed = startS3Emulator({ port, dir });
      await expect(failed).rejects.toBeInstanceOf(PortInUseError);
      await expect(failed).rejects.toThrow(/S3_PORT=<port>/);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

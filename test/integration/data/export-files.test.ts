import { beforeAll, describe, expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3ArchiveParts } from '#adapters/s3-archive-parts.ts';
import { s3Client } from '#adapters/s3-file-store.ts';
import { EXPORT_PART_BYTES, s3ExportFiles } from '#adapters/s3-export-files.ts';
import { s3UploadedFiles } from '#adapters/s3-uploaded-files.ts';
import { required } from '#functions/config.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

describe('s3ExportFiles (against s3rver)', () => {
  it('writes an export in parts as its chunks come, and answers a link that downloads the whole file under its name', async () => {
    const upload = await s3ExportFiles().start(`tests/${unique('export')}.csv`, { contentType: 'text/csv; charset=utf-8', fileName: 'team-report.csv' });
    // Three pages of ~2.2 MiB: the first part goes out once two are in (5 MiB), the rest as the last part.
    const pages = ['a', 'b', 'c'].map((letter, i) => `${i === 0 ? 'email\n' : ''}${`${letter.repeat(99)}\n`.repeat(Math.ceil((0.44 * EXPORT_PART_BYTES) / 100))}`);
    for (const page of pages) await upload.write(page);
    const { url, expiresAt } = await upload.finish();
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="team-report.csv"');
    expect(file.headers.get('content-type')).toContain('text/csv');
    const body = await file.text();
    expect(body.length).toBe(pages.join('').length);
    expect(body).toBe(pages.join(''));
  });

  it('answers an empty export as an empty file', async () => {
    const upload = await s3ExportFiles().start(`tests/${unique('empty')}.csv`, { contentType: 'text/csv', fileName: 'x.csv' });
    const { url } = await upload.finish();
    expect(await (await fetch(url)).text()).toBe('');
  });
});

describe('s3ArchiveParts (against s3rver)', () => {
  it('writes a file a part at a time, a part written again replacing it, carries bytes between slices, and completes once or again', async () => {
    const parts = s3ArchiveParts();
    const key = `tests/${unique('archive')}.zip`;
    const uploadId = await parts.begin(key, { contentType: 'application/zip' });
    const first = Buffer.alloc(EXPORT_PART_BYTES, 'a');
    const etag1 = await parts.part(key, uploadId, 1, Buffer.alloc(EXPORT_PART_BYTES, 'x'));
    // The slice delivered again after a kill writes part 1 again: the second one is the part.
    const etag1Again = await parts.part(key, uploadId, 1, first);
    expect(etag1Again).not.toBe(etag1);
    await parts.carry(key, 3, Buffer.from('carried'));
    expect(Buffer.from((await parts.carried(key, 3))!).toString()).toBe('carried');
    expect(await parts.carried(key, 4)).toBeUndefined();
    const etag2 = await parts.part(key, uploadId, 2, Buffer.from('the end'));
    const done = await parts.complete(key, uploadId, [{ n: 1, etag: etag1Again }, { n: 2, etag: etag2 }], { fileName: 'my-data.zip', linkSeconds: 3600 });
    const body = Buffer.from(await (await fetch(done.url)).arrayBuffer());
    expect(body.equals(Buffer.concat([first, Buffer.from('the end')]))).toBe(true);
    // Completed again (a delivery killed before it made the export ready): the same file's link.
    const again = await parts.complete(key, uploadId, [{ n: 1, etag: etag1Again }, { n: 2, etag: etag2 }], { fileName: 'my-data.zip', linkSeconds: 3600 });
    expect((await fetch(again.url)).status).toBe(200);
  });
});

describe('s3UploadedFiles (against s3rver)', () => {
  it("reads an upload from a byte on (a file an export's slice ended in), and nothing past its end", async () => {
    const key = `tests/${unique('upload')}.bin`;
    const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
    await s3Client().send(new PutObjectCommand({ Bucket: required('FILES_BUCKET'), Key: key, Body: bytes }));
    const read = async (from: number) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of (await s3UploadedFiles().open(key, from))!) chunks.push(chunk);
      return Buffer.concat(chunks);
    };
    expect((await read(0)).equals(bytes)).toBe(true);
    expect((await read(6_000)).equals(bytes.subarray(6_000))).toBe(true);
    expect((await read(10_000)).length).toBe(0);
    expect(await s3UploadedFiles().open(`tests/${unique('missing')}.bin`)).toBeUndefined();
  });
});

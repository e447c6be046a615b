import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PART_BYTES, s3ExportFiles } from '#adapters/s3-export-files.ts';
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

import { describe, expect, it } from 'vitest';
import { crc32, zipArchive, zipWriter, type ZipState } from '#core/personal-exports/zip.ts';
import { unzip } from '#test/functions/fakes/unzip.ts';

const build = async (files: [string, string[]][]) => {
  const chunks: Uint8Array[] = [];
  const zip = zipWriter(async (bytes) => void chunks.push(bytes), new Date('2026-11-29T10:15:30Z'));
  for (const [name, parts] of files) await zip.file(name, async (put) => { for (const part of parts) await put(part); });
  await zip.end();
  return { bytes: Buffer.concat(chunks), chunks: chunks.length };
};

describe('the streaming ZIP writer', () => {
  it('computes the CRC-32 ZIP uses', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new TextEncoder().encode('6789'), crc32(new TextEncoder().encode('12345')))).toBe(0xcbf43926);
  });

  it('writes files chunk by chunk that open with their content, names in UTF-8 and empty files too', async () => {
    const { bytes, chunks } = await build([
      ['account.json', ['[', '{"email":"ann@example.com"}', ']']],
      ['quiz-attempts/c1.json', ['[]']],
      ['empty.txt', []],
      ['notes/Zoë.txt', ['café ', 'crème']],
    ]);
    expect(chunks).toBeGreaterThan(8);
    const files = unzip(bytes);
    expect([...files.keys()]).toEqual(['account.json', 'quiz-attempts/c1.json', 'empty.txt', 'notes/Zoë.txt']);
    expect(JSON.parse(files.get('account.json')!.toString())).toEqual([{ email: 'ann@example.com' }]);
    expect(files.get('empty.txt')!.length).toBe(0);
    expect(files.get('notes/Zoë.txt')!.toString()).toBe('café crème');
  });

  it('saved in the middle of a file and resumed by another writer, gives the same archive byte for byte', async () => {
    const at = new Date('2026-11-29T10:15:30Z');
    const whole: Uint8Array[] = [];
    const one = zipArchive(async (b) => void whole.push(b), at);
    await one.open('a.json');
    await one.put('[1,');
    await one.put('2]');
    await one.close();
    await one.open('b.txt');
    await one.put('first half, ');
    await one.put('second half');
    await one.close();
    await one.end();

    const pieces: Uint8Array[] = [];
    const first = zipArchive(async (b) => void pieces.push(b), at);
    await first.open('a.json');
    await first.put('[1,');
    await first.put('2]');
    await first.close();
    await first.open('b.txt');
    await first.put('first half, ');
    // Through JSON, as the export's item keeps it.
    const saved = JSON.parse(JSON.stringify(first.state())) as ZipState;
    expect(saved.open).toMatchObject({ name: 'b.txt', size: 12 });
    const second = zipArchive(async (b) => void pieces.push(b), at, saved);
    await second.put('second half');
    await second.close();
    await second.end();

    expect(Buffer.concat(pieces).equals(Buffer.concat(whole))).toBe(true);
    expect(unzip(Buffer.concat(pieces)).get('b.txt')!.toString()).toBe('first half, second half');
  });
});

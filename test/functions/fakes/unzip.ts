import { inflateRawSync } from 'node:zlib';
import { crc32 } from '#core/personal-exports/zip.ts';

/**
 * The files of a ZIP archive by name, read from its central directory (stored or deflated entries): what a person
 * sees when they open the download, each checked against its CRC-32 as an unzip tool checks it (a file put together
 * wrongly from parts fails here). For the tests of the personal data export only; no ZIP64.
 */
export const unzip = (archive: Uint8Array): Map<string, Buffer> => {
  const zip = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('Not a ZIP archive: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`Central directory entry ${i} is damaged`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (zip.readUInt32LE(offset) !== 0x04034b50) throw new Error(`The local header of ${name} is damaged`);
    const dataStart = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const data = zip.subarray(dataStart, dataStart + size);
    const file = method === 8 ? inflateRawSync(data) : Buffer.from(data);
    if (crc32(file) !== crc) throw new Error(`${name} is damaged: its CRC-32 does not match`);
    files.set(name, file);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
};

import type { ZipState } from '#core/personal-exports/ports.ts';

/**
 * A streaming ZIP writer (PKWARE APPNOTE 6.3): each file is written as its bytes come, with a data descriptor after
 * it (its CRC-32 and size known only then), and the central directory at the end. Entries are stored, not
 * deflated: the writer holds nothing but the list of names and offsets, so a file of any length passes through in
 * the caller's chunks (issue 37: a creator's 50,000 CRM rows in bounded memory) and the job's bundle takes no zip
 * library. Its whole state is that list, the offset and the open file's CRC and size so far (`ZipState`): the export
 * saves it between slices and resumes the archive in the next one (decision 0062). No ZIP64: an archive stops at
 * 4 GiB and 65,535 files, checked.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ZIP's, IEEE 802.3) of `bytes`, continuing from `crc` (0 to start). */
export const crc32 = (bytes: Uint8Array, crc = 0): number => {
  let c = ~crc >>> 0;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
};

const LIMIT = 0xffffffff;
/** General purpose flags: bit 3 (sizes and CRC in the data descriptor), bit 11 (names in UTF-8). */
const FLAGS = 0x0808;

/** MS-DOS date and time of `at` (UTC), as ZIP stores a file's modification time. */
const dosTime = (at: Date): { time: number; date: number } => ({
  time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
  date: ((Math.max(at.getUTCFullYear(), 1980) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
});

const header = (size: number, fill: (view: DataView) => void): Uint8Array => {
  const bytes = new Uint8Array(size);
  fill(new DataView(bytes.buffer));
  return bytes;
};

const utf8 = new TextEncoder();

export type { ZipState };

export const EMPTY_ZIP: ZipState = { offset: 0, entries: [] };

/** A ZIP written a piece at a time, whose state can be saved between any two calls and resumed. */
export interface ZipArchive {
  /** Starts the file `name` (its local header): the last one must be closed. */
  open(name: string): Promise<void>;
  /** Appends a chunk (text as UTF-8) to the open file. */
  put(chunk: string | Uint8Array): Promise<void>;
  /** Ends the open file (its data descriptor) and enters it in the directory. */
  close(): Promise<void>;
  /** The central directory and its end: the archive is complete. */
  end(): Promise<void>;
  /** The file open now, if any (how far it went: its size). */
  current(): ZipState['open'];
  /** A copy of where it stands (plain data). */
  state(): ZipState;
}

/** A ZIP written to `out` (awaited chunk by chunk: the sink's pace bounds the memory), files dated `at`, from `from`. */
export const zipArchive = (out: (bytes: Uint8Array) => Promise<void>, at: Date, from: ZipState = EMPTY_ZIP): ZipArchive => {
  const { time, date } = dosTime(at);
  const entries = from.entries.map(([name, crc, size, offset]) => ({ name: utf8.encode(name), text: name, crc, size, offset }));
  let offset = from.offset;
  let open = from.open ? { ...from.open } : undefined;
  const emit = async (bytes: Uint8Array) => {
    offset += bytes.length;
    if (offset > LIMIT) throw new Error('The archive would pass 4 GiB, which a ZIP without ZIP64 cannot hold');
    await out(bytes);
  };
  return {
    async open(fileName) {
      if (open) throw new Error(`${open.name} is still open`);
      if (entries.length === 0xffff) throw new Error('The archive would pass 65,535 files, which a ZIP without ZIP64 cannot hold');
      const name = utf8.encode(fileName);
      const start = offset;
      await emit(
        header(30 + name.length, (v) => {
          v.setUint32(0, 0x04034b50, true);
          v.setUint16(4, 20, true);
          v.setUint16(6, FLAGS, true);
          v.setUint16(8, 0, true);
          v.setUint16(10, time, true);
          v.setUint16(12, date, true);
          // CRC-32 and sizes: 0 here, in the data descriptor after the data (flag bit 3).
          v.setUint16(26, name.length, true);
          new Uint8Array(v.buffer).set(name, 30);
        }),
      );
      open = { name: fileName, crc: 0, size: 0, offset: start };
    },

    async put(chunk) {
      if (!open) throw new Error('No file is open');
      const bytes = typeof chunk === 'string' ? utf8.encode(chunk) : chunk;
      if (bytes.length === 0) return;
      open.crc = crc32(bytes, open.crc);
      open.size += bytes.length;
      await emit(bytes);
    },

    async close() {
      if (!open) throw new Error('No file is open');
      const { name, crc, size, offset: start } = open;
      await emit(
        header(16, (v) => {
          v.setUint32(0, 0x08074b50, true);
          v.setUint32(4, crc, true);
          v.setUint32(8, size, true);
          v.setUint32(12, size, true);
        }),
      );
      entries.push({ name: utf8.encode(name), text: name, crc, size, offset: start });
      open = undefined;
    },

    async end() {
      if (open) throw new Error(`${open.name} is still open`);
      const directoryStart = offset;
      for (const entry of entries) {
        await emit(
          header(46 + entry.name.length, (v) => {
            v.setUint32(0, 0x02014b50, true);
            v.setUint16(4, 20, true);
            v.setUint16(6, 20, true);
            v.setUint16(8, FLAGS, true);
            v.setUint16(10, 0, true);
            v.setUint16(12, time, true);
            v.setUint16(14, date, true);
            v.setUint32(16, entry.crc, true);
            v.setUint32(20, entry.size, true);
            v.setUint32(24, entry.size, true);
            v.setUint16(28, entry.name.length, true);
            v.setUint32(42, entry.offset, true);
            new Uint8Array(v.buffer).set(entry.name, 46);
          }),
        );
      }
      const directorySize = offset - directoryStart;
      await emit(
        header(22, (v) => {
          v.setUint32(0, 0x06054b50, true);
          v.setUint16(8, entries.length, true);
          v.setUint16(10, entries.length, true);
          v.setUint32(12, directorySize, true);
          v.setUint32(16, directoryStart, true);
        }),
      );
    },

    current: () => (open ? { ...open } : undefined),
    state: () => ({ offset, entries: entries.map((e) => [e.text, e.crc, e.size, e.offset] as const), ...(open ? { open: { ...open } } : {}) }),
  };
};

export interface ZipWriter {
  /** One file: `write` is given `put`, which appends a chunk (text as UTF-8) to it; the file ends when `write` resolves. */
  file(name: string, write: (put: (chunk: string | Uint8Array) => Promise<void>) => Promise<void>): Promise<void>;
  /** The central directory and its end: the archive is complete. */
  end(): Promise<void>;
}

/** A ZIP written in one go to `out`, a file at a time (zipArchive without the saving). */
export const zipWriter = (out: (bytes: Uint8Array) => Promise<void>, at: Date): ZipWriter => {
  const zip = zipArchive(out, at);
  return {
    async file(name, write) {
      await zip.open(name);
      await write((chunk) => zip.put(chunk));
      await zip.close();
    },
    end: () => zip.end(),
  };
};

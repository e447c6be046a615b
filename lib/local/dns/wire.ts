/**
 * The little of DNS's wire format (RFC 1035) the DNS stand-in speaks: one question in, answers of type A, CNAME or
 * TXT out, no compression written (pointers are read, though a resolver's query has none). No `dns-packet` in the
 * dependencies, and this is all it would be used for.
 */
export const TYPES = { A: 1, CNAME: 5, TXT: 16 } as const;
export type RecordType = keyof typeof TYPES;
export const recordTypes = Object.keys(TYPES) as RecordType[];

export interface Question {
  id: number;
  /** The query's flags: its RD bit is echoed. */
  flags: number;
  name: string;
  type: number;
  class: number;
}

/** Reads a (possibly compressed) name at `offset`: the name, and where the bytes after it start. */
const readName = (msg: Buffer, offset: number): { name: string; next: number } => {
  const labels: string[] = [];
  let at = offset;
  let next = -1;
  for (let hops = 0; hops < 64; hops++) {
    const length = msg[at];
    if (length === undefined) throw new Error('truncated name');
    if (length === 0) return { name: labels.join('.'), next: next === -1 ? at + 1 : next };
    if ((length & 0xc0) === 0xc0) {
      if (next === -1) next = at + 2;
      at = ((length & 0x3f) << 8) | msg[at + 1]!;
      continue;
    }
    labels.push(msg.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
  throw new Error('name loops');
};

/** The query's first question (a resolver sends one), or undefined for what is not a query. */
export const parseQuery = (msg: Buffer): Question | undefined => {
  if (msg.length < 12) return undefined;
  const flags = msg.readUInt16BE(2);
  if (flags & 0x8000 || msg.readUInt16BE(4) < 1) return undefined;
  const { name, next } = readName(msg, 12);
  return { id: msg.readUInt16BE(0), flags, name: name.toLowerCase(), type: msg.readUInt16BE(next), class: msg.readUInt16BE(next + 2) };
};

const encodeName = (name: string): Buffer =>
  Buffer.concat([...name.replace(/\.$/, '').split('.').filter((l) => l !== '').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')])), Buffer.from([0])]);

const rdata = (type: RecordType, value: string): Buffer => {
  switch (type) {
    case 'A':
      return Buffer.from(value.split('.').map(Number));
    case 'CNAME':
      return encodeName(value);
    case 'TXT': {
      // A TXT string holds 255 bytes at most: a longer value is split, as zone files do.
      const bytes = Buffer.from(value, 'utf8');
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length || i === 0; i += 255) {
        const chunk = bytes.subarray(i, i + 255);
        parts.push(Buffer.from([chunk.length]), chunk);
      }
      return Buffer.concat(parts);
    }
  }
};

export interface Answer {
  name: string;
  type: RecordType;
  value: string;
}

/** The response to `q`: its answers (rcode NOERROR), or NXDOMAIN when `nxdomain` (no record of any type at the name). */
export const encodeResponse = (q: Question, answers: readonly Answer[], nxdomain: boolean): Buffer => {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(q.id, 0);
  // QR, AA, the query's RD, RA; rcode 3 for NXDOMAIN.
  header.writeUInt16BE(0x8000 | 0x0400 | (q.flags & 0x0100) | 0x0080 | (nxdomain ? 3 : 0), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const question = Buffer.concat([encodeName(q.name), Buffer.from([q.type >> 8, q.type & 0xff, q.class >> 8, q.class & 0xff])]);
  const records = answers.map((a) => {
    const data = rdata(a.type, a.value);
    const fixed = Buffer.alloc(10);
    fixed.writeUInt16BE(TYPES[a.type], 0);
    fixed.writeUInt16BE(1, 2);
    fixed.writeUInt32BE(5, 4); // TTL 5 s: a test's change is seen at once.
    fixed.writeUInt16BE(data.length, 8);
    return Buffer.concat([encodeName(a.name), fixed, data]);
  });
  return Buffer.concat([header, question, ...records]);
};

import type { PageRequest, Paged } from '#contracts/common.ts';

/** A page of an in-memory list already in its order: the cursor is the offset of the next row, opaque as the real ones. */
export const pageOf = <T>(rows: T[], { cursor, limit }: PageRequest): Paged<T> => {
  const from = cursor === undefined ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isInteger(from) || from < 0) throw new Error(`not a cursor of this list: ${cursor}`);
  const next = from + limit;
  return { items: rows.slice(from, next), nextCursor: next < rows.length ? Buffer.from(String(next)).toString('base64url') : null };
};

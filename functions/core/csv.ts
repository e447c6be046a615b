import type { ExportFiles } from '#core/ports.ts';

/**
 * CSV the creators and leaders download (payouts, team reports): a cell quoted when it holds a comma, a quote or a
 * line break, and never read as a formula by a spreadsheet (a leading =, +, -, @, tab or CR gets a quote mark).
 */
export const csvCell = (value: string): string => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The header line and one line per row, each ending in a newline. */
export const csv = (header: string, rows: readonly (readonly string[])[]): string => [header, ...rows.map((row) => row.map(csvCell).join(','))].join('\n') + '\n';

/**
 * A CSV export written to the export store a page at a time (S3 multipart: the function holds one page, whatever the
 * size; issue 28): the header once, then each page's rows (`csv`'s lines under `header`), until a page has no next
 * cursor. A failure halfway gives the file up. Answers the download link and the rows written.
 */
export const exportCsvPages = async <T>(
  exports: ExportFiles,
  file: { key: string; fileName: string },
  header: string,
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
  row: (item: T) => readonly string[],
): Promise<{ url: string; expiresAt: string; rows: number }> => {
  const upload = await exports.start(file.key, { contentType: 'text/csv; charset=utf-8', fileName: file.fileName });
  try {
    // The header goes with the first page's rows (alone when there are none); each later page its rows only.
    let head = `${header}\n`;
    let rows = 0;
    let cursor: string | undefined;
    do {
      const read = await page(cursor);
      const text = read.items.length > 0 ? csv(header, read.items.map(row)).slice(header.length + 1) : '';
      if (head || text) await upload.write(head + text);
      head = '';
      rows += read.items.length;
      cursor = read.nextCursor ?? undefined;
    } while (cursor);
    return { ...(await upload.finish()), rows };
  } catch (error) {
    await upload.abort();
    throw error;
  }
};

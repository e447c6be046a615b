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

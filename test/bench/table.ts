/**
 * The one table the bench prints. A row is a measurement next to its budget; `ok` is undefined when the row has
 * no budget (information only) and the row reads "error: ..." when the measurement itself failed.
 */
export interface Row {
  metric: string;
  measured: string;
  budget?: string;
  ok?: boolean;
}

export const row = (metric: string, measured: string, budget?: string, ok?: boolean): Row => ({
  metric,
  measured,
  ...(budget === undefined ? {} : { budget }),
  ...(ok === undefined ? {} : { ok }),
});

/** A measurement that could not be taken: the run goes on and the table says why. */
export const errorRow = (metric: string, error: unknown): Row => ({ metric, measured: `error: ${shortMessage(error)}` });

export const shortMessage = (error: unknown): string => {
  // esbuild's message is "Build failed with 1 error:" and the reason sits in `errors`.
  const first = (error as { errors?: { text?: string }[] } | undefined)?.errors?.[0]?.text;
  const text = first ?? (error instanceof Error ? error.message : String(error));
  const firstLine = text.split('\n').find((line) => line.trim() !== '') ?? text;
  return firstLine.length > 110 ? `${firstLine.slice(0, 107)}...` : firstLine.trim();
};

/** A section heading inside the table. */
export const section = (title: string): Row => ({ metric: `-- ${title}`, measured: '' });

const mark = (ok: boolean | undefined): string => (ok === undefined ? '' : ok ? '✓' : '✗');

export const formatTable = (rows: readonly Row[]): string => {
  const cells = rows.map((r) => [r.metric, r.measured, r.budget ?? '', mark(r.ok)] as const);
  const header = ['metric', 'measured', 'budget', 'ok'] as const;
  // Section headings span the whole line and do not widen the first column.
  const measuredCells = cells.filter((c) => !c[0].startsWith('-- '));
  const widths = header.map((h, i) => Math.max(h.length, ...measuredCells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) =>
    c
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
  return [line(header), rule, ...cells.map((c) => (c[0].startsWith('-- ') ? c[0] : line(c)))].join('\n');
};

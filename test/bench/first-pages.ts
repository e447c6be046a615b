import { non2xxCodes } from './load.ts';
import { ms, percentile } from './stats.ts';
import { count } from './cloud-part.ts';
import { row, shortMessage, type Row } from './table.ts';

/**
 * A list's first page at a small and a large size, compared (QUALITY.md: every list a person pages through costs the
 * same within 1.5x at 10 and at 10,000 items): one request in flight, the two alternating so the noise of a shared
 * machine falls on both alike, after a warm-up. The CRM and the leader report benches use it.
 */

export interface FirstPageTarget {
  /** The list at this size (its first page's URL, no cursor) and who may read it. */
  url: string;
  token: string;
  /** How many items the list holds. */
  items: number;
}

interface PageSample {
  times: number[];
  statusCodes: Record<string, number>;
  errors: number;
  rows: number;
  nextCursor: boolean;
  /** Why the first failed request failed (fetch's own message is only "fetch failed"; the reason is its cause). */
  firstError?: string;
}

/** One first page: its time, and what it held (the last answer is kept for the table's check). */
const firstPage = async (target: FirstPageTarget, into: PageSample, measured: boolean): Promise<void> => {
  const started = performance.now();
  try {
    const res = await fetch(target.url, { headers: { authorization: `Bearer ${target.token}` } });
    const body = await res.text();
    const elapsed = performance.now() - started;
    if (!measured) return;
    into.statusCodes[res.status] = (into.statusCodes[res.status] ?? 0) + 1;
    if (res.status !== 200) return;
    into.times.push(elapsed);
    const page = JSON.parse(body) as { items: unknown[]; nextCursor: string | null };
    into.rows = page.items.length;
    into.nextCursor = page.nextCursor !== null;
  } catch (error) {
    if (!measured) return;
    into.errors += 1;
    into.firstError ??= shortMessage((error as { cause?: unknown }).cause ?? error);
  }
};

/**
 * The rows: each size's p50 / p95, the shape of the two first pages (all `small.items`, no cursor; `pageSize` and a
 * cursor) with the failures, and the ratio of the p50s against `budget`. `noun` names the items ("learners").
 */
export const compareFirstPages = async (input: {
  small: FirstPageTarget;
  large: FirstPageTarget;
  pageSize: number;
  noun: string;
  warmUp: number;
  requests: number;
  budget: number;
}): Promise<Row[]> => {
  const { small, large } = input;
  const samples = new Map<FirstPageTarget, PageSample>([small, large].map((t) => [t, { times: [], statusCodes: {}, errors: 0, rows: 0, nextCursor: false }]));
  for (let i = 0; i < input.warmUp + input.requests; i++) {
    // Alternate which goes first, so neither always follows the other's request.
    const order = i % 2 === 0 ? [small, large] : [large, small];
    for (const t of order) await firstPage(t, samples.get(t)!, i >= input.warmUp);
  }
  const s = samples.get(small)!;
  const l = samples.get(large)!;
  const failures = (x: PageSample) => Object.entries(x.statusCodes).filter(([code]) => code !== '200').reduce((acc, [, n]) => acc + n, 0);
  const failed = failures(s) + failures(l);
  const errors = s.errors + l.errors;
  const why = s.firstError ?? l.firstError;
  const codes = [non2xxCodes(s.statusCodes), non2xxCodes(l.statusCodes)].filter(Boolean).join(' ');
  const shapeOk = s.rows === small.items && !s.nextCursor && l.rows === input.pageSize && l.nextCursor;
  const ratio = percentile(l.times, 50) / percentile(s.times, 50);
  const pageRow = (target: FirstPageTarget, x: PageSample): Row =>
    row(`first page at ${count(target.items)} ${input.noun} p50 / p95 (${x.rows} rows${x.nextCursor ? ', next cursor' : ''})`, `${ms(percentile(x.times, 50))} / ${ms(percentile(x.times, 95))}`);
  return [
    pageRow(small, s),
    pageRow(large, l),
    row(
      `first pages: rows at ${count(small.items)} / ${count(large.items)}; non-2xx / errors`,
      `${s.rows} / ${l.rows}${l.nextCursor ? ' + cursor' : ''}; ${failed}${codes ? ` (${codes})` : ''} / ${errors}${why ? ` (first: ${why})` : ''}`,
      `${small.items} / ${input.pageSize} + cursor; 0 / 0`,
      shapeOk && failed === 0 && errors === 0,
    ),
    row(`ratio p50 at ${count(large.items)} / p50 at ${count(small.items)}`, `${ratio.toFixed(2)}x`, `<= ${input.budget}x`, ratio <= input.budget),
  ];
};

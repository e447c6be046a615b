import { assignSeatBody } from '@contracts/licenses.ts';
import type { SeatOutcome } from './api/leader-queries.ts';

/** What became of one row of 'Add members': the server's answer, or what the screen decided before asking it. */
export type RowOutcome = SeatOutcome | { kind: 'member' } | { kind: 'invalid' } | { kind: 'duplicate' };

/** One row as typed (`text`), its email once checked (lowercase, as the server keeps it), and its outcome. */
export interface RowResult {
  text: string;
  outcome: RowOutcome;
}

/** A row of the plan: checked before any request; `email` is sent unless `skip` says why not. */
interface PlannedRow {
  text: string;
  email: string | null;
  skip?: RowOutcome;
}

/** Quotes and angle brackets around a pasted address ('"ann@example.com"', '<ann@example.com>') are not part of it. */
const unwrap = (text: string): string => text.replace(/^["'<\s]+|["'>\s]+$/g, '');

/** The rows of a paste: one email or many, separated by commas, semicolons, spaces or new lines. */
export const splitEmails = (text: string): string[] => text.split(/[\s,;]+/).map(unwrap).filter((row) => row !== '');

/** Every email-looking cell of a CSV file (any column, header or not; cells split on commas, semicolons or tabs). */
export const emailsInCsv = (text: string): string[] =>
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .flatMap((line) => line.split(/[,;\t]/))
    .map(unwrap)
    .filter((cell) => /^[^\s@]+@[^\s@]+$/.test(cell));

/**
 * Each row checked in the browser, in order: not an email (the contract's own rule), a repeat of an earlier row, or
 * someone already holding a seat are settled without a request; the rest are the emails to send.
 */
export function planRows(rows: string[], activeMembers: ReadonlySet<string>): { planned: PlannedRow[]; toSend: string[] } {
  const seen = new Set<string>();
  const planned = rows.map((text): PlannedRow => {
    const checked = assignSeatBody.safeParse({ email: text });
    if (!checked.success) return { text, email: null, skip: { kind: 'invalid' } };
    const email = checked.data.email;
    if (seen.has(email)) return { text, email, skip: { kind: 'duplicate' } };
    seen.add(email);
    if (activeMembers.has(email)) return { text, email, skip: { kind: 'member' } };
    return { text, email };
  });
  return { planned, toSend: planned.flatMap((row) => (row.skip || row.email === null ? [] : [row.email])) };
}

/** The plan's rows with the server's outcomes, given in the order of `toSend`. */
export function rowResults(planned: PlannedRow[], outcomes: SeatOutcome[]): RowResult[] {
  let next = 0;
  return planned.map((row) => ({ text: row.email ?? row.text, outcome: row.skip ?? outcomes[next++] ?? { kind: 'refused', message: 'Not sent.' } }));
}

/** Whether a row's outcome is a failure the leader has to act on (a duplicate or a member already in is not). */
export const failed = (outcome: RowOutcome): boolean => outcome.kind === 'no-seats' || outcome.kind === 'refused' || outcome.kind === 'invalid';

/** '2 added, 1 failed', '3 added, 1 already a member'. */
export function summary(results: RowResult[]): string {
  const added = results.filter((row) => row.outcome.kind === 'added').length;
  const failures = results.filter((row) => failed(row.outcome)).length;
  const members = results.filter((row) => row.outcome.kind === 'member').length;
  return [
    `${added} added`,
    failures > 0 && `${failures} failed`,
    members > 0 && `${members} already ${members === 1 ? 'a member' : 'members'}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * Lanes of a weekly report run sending at once (a lane per page of leaders): the most its job queue's event source
 * runs side by side (`maxConcurrency`, lib/constructs/job-queue-names.ts, which the local event source keeps too), and
 * the share of the platform's part of SES's rate each lane paces itself at (core/licenses/weekly-report.ts). One number
 * for both, so the lanes together ask SES for the platform's share and no more: with the pace at 4 and the queue at 5,
 * a Monday's report asked for 125 % of it (docs/scale-bench.md). A module of its own, a plain value: lib reads it.
 */
export const REPORT_LANES_AT_ONCE = 5;

import { progressStates, type ProgressState, type ReportRow } from '@contracts/licenses.ts';

/** The report's filters as the screen applies them; an absent one is 'All'. */
export interface ReportFilters {
  licenseId?: string;
  status?: ReportRow['status'];
  progress?: ProgressState;
  /** Part of an email, trimmed; never empty. */
  q?: string;
}

export const seatStatuses = ['active', 'revoked'] as const;

/**
 * The filters live in the page's address (`?license=&status=&progress=&q=`), so a report can be shared or
 * bookmarked and Back undoes a filter. `license` is the name My Groups uses too; values the API would refuse are
 * dropped rather than sent.
 */
export const filterParams = { licenseId: 'license', status: 'status', progress: 'progress', q: 'q' } as const satisfies Record<keyof ReportFilters, string>;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;

export function filtersFromParams(params: URLSearchParams): ReportFilters {
  const licenseId = params.get(filterParams.licenseId) ?? '';
  const status = oneOf(seatStatuses, params.get(filterParams.status));
  const progress = oneOf(progressStates, params.get(filterParams.progress));
  const q = (params.get(filterParams.q) ?? '').trim();
  return {
    ...(licenseId ? { licenseId } : {}),
    ...(status ? { status } : {}),
    ...(progress ? { progress } : {}),
    ...(q ? { q } : {}),
  };
}

/** The address's parameters with `changes` applied: an undefined or empty value removes its parameter. */
export function paramsWithFilters(current: URLSearchParams, changes: Partial<Record<keyof ReportFilters, string | undefined>>): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes) as [keyof ReportFilters, string | undefined][]) {
    if (value) next.set(filterParams[key], value);
    else next.delete(filterParams[key]);
  }
  return next;
}

export const hasFilters = (filters: ReportFilters): boolean => Object.keys(filters).length > 0;

/**
 * GET /api/leader/reports with the filters, in a fixed order (one cache key and one URL per report): one page from
 * `cursor`, or with `format: 'csv'` every matching row as a file.
 */
export function reportUrl(filters: ReportFilters, { cursor, format }: { cursor?: string | undefined; format?: 'csv' } = {}): string {
  const query = new URLSearchParams();
  // The file as a link the browser downloads (without delivery=link the API answers a redirect to the file).
  if (format) {
    query.set('format', format);
    query.set('delivery', 'link');
  }
  if (filters.licenseId) query.set('licenseId', filters.licenseId);
  if (filters.status) query.set('status', filters.status);
  if (filters.progress) query.set('progress', filters.progress);
  if (filters.q) query.set('q', filters.q);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return search ? `/api/leader/reports?${search}` : '/api/leader/reports';
}

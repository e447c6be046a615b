import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { SearchX, Users } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { leaderLicensesQueryOptions, leaderReportQueryOptions } from '../api/leader-queries.ts';
import { DownloadReportButton } from '../components/download-report-button.tsx';
import { ReportFiltersBar, type FilterChanges } from '../components/report-filters-bar.tsx';
import { ReportTable } from '../components/report-table.tsx';
import { leaderMessages } from '../leader-messages.ts';
import { filtersFromParams, hasFilters, paramsWithFilters } from '../report-filters.ts';

const m = leaderMessages.reports;
const noFilters: FilterChanges = { licenseId: undefined, status: undefined, progress: undefined, q: undefined };

/**
 * /dashboard/leader/reports: every member of every licence of the leader's, with their course, seat status, progress,
 * last activity, completion and certificate, 50 at a time ('Load more'). Filters (licence, seat status, progress,
 * part of an email) live in the address, so a filtered report can be shared and Back undoes a filter;
 * 'Download CSV' saves every row they match.
 */
export function LeaderReportsScreen() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const licenses = useQuery(leaderLicensesQueryOptions());
  const report = useInfiniteQuery(leaderReportQueryOptions(filters));
  const rows = useMemo(() => report.data?.pages.flatMap((page) => page.items) ?? [], [report.data]);

  // Each choice is an entry in the history (Back undoes it); the search replaces its own (see ReportFiltersBar).
  const change = (changes: FilterChanges, { replace = false } = {}) => setParams((current) => paramsWithFilters(current, changes), { replace });

  // A licence in the address that is not the leader's (an old link, another leader's) is dropped, not asked for.
  const items = licenses.data?.items;
  const unknownLicense = filters.licenseId !== undefined && items !== undefined && !items.some((license) => license.id === filters.licenseId);
  useEffect(() => {
    if (unknownLicense) setParams((current) => paramsWithFilters(current, { licenseId: undefined }), { replace: true });
  }, [unknownLicense, setParams]);

  // The rows on screen are the current filters' (not the previous filters' kept while the new ones load).
  const current = report.isSuccess && !report.isPlaceholderData;
  const noTeam = items?.length === 0 || (current && !hasFilters(filters) && rows.length === 0);
  const failed = licenses.isError || (report.isError && !report.isFetchNextPageError);
  const retry = () => {
    if (licenses.isError) void licenses.refetch();
    if (report.isError) void report.refetch();
  };
  const loadMore = () =>
    void report.fetchNextPage().then((result) => {
      if (result.isFetchNextPageError) toastError(result.error, m.moreFailed);
    });

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title={m.title}
        description={m.description}
        actions={items && items.length > 0 && !noTeam && <DownloadReportButton filters={filters} disabled={!report.isSuccess || (current && rows.length === 0)} />}
      />
      {licenses.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : failed ? (
        <LoadFailed message={m.loadFailed} onRetry={retry} retrying={licenses.isRefetching || report.isRefetching} retryLabel={m.retry} />
      ) : noTeam ? (
        <EmptyState
          icon={Users}
          title={m.noTeam.title}
          action={
            <Button asChild variant="outline">
              <Link to={paths.leader.groups}>{m.noTeam.action}</Link>
            </Button>
          }
        >
          {m.noTeam.description}
        </EmptyState>
      ) : (
        <>
          <ReportFiltersBar licenses={licenses.data.items} filters={filters} onChange={change} />
          {report.isPending ? (
            <TableSkeleton label={m.loading} />
          ) : current && rows.length === 0 ? (
            <EmptyState
              icon={SearchX}
              title={m.noMatch.title}
              action={
                <Button variant="outline" onClick={() => change(noFilters)}>
                  {m.noMatch.action}
                </Button>
              }
            >
              {m.noMatch.description}
            </EmptyState>
          ) : (
            // Below 1280 px the table folds into cards of its own (report-table.tsx): no card around them.
            <Card className="max-xl:border-0 max-xl:bg-transparent max-xl:shadow-none">
              <CardContent className="grid gap-4 pt-6 *:min-w-0 max-xl:p-0">
                <p aria-live="polite" className="text-sm text-muted-foreground">
                  {m.showing(rows.length)}
                </p>
                <ReportTable rows={rows} busy={report.isPlaceholderData} />
                {!report.isPlaceholderData && <LoadMore pages={report} label={m.more} onLoadMore={loadMore} className="max-sm:w-full" />}
              </CardContent>
            </Card>
          )}
        </>
      )}
    </div>
  );
}

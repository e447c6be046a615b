import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Banknote, CalendarSearch, ReceiptText, Undo2 } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { analyticsWindows, type CreatorAnalytics } from '@contracts/sales.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { StatCard } from '@/components/ui/stat-card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { paths } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { analyticsQueryOptions, salesQueryOptions, type AnalyticsWindow } from '../api/sales-queries.ts';
import { salesMessages as m } from '../sales-messages.ts';
import { NoSalesYet } from './no-sales-yet.tsx';
import { CHART_HEIGHT, chartPoints, revenueSummary, signedPounds } from '../sales-format.ts';
import { LoadFailed } from '@/components/ui/load-failed.tsx';

// The chart library arrives with the chart, not with the screen.
const RevenueChart = lazy(() => import('./revenue-chart.tsx').then((mod) => ({ default: mod.RevenueChart })));

/**
 * The Overview tab: a period (30, 90 or 365 days), the period's revenue net of refunds, sales and refunds, revenue
 * and sales per day as a chart with its text equivalent, revenue by course, the funnel and coupon use. A period without any sale says so:
 * 'No sales yet' when the creator has never sold (the first page of the sales list is empty), else that this period
 * was quiet.
 */
export function AnalyticsOverview({ days, onDaysChange }: { days: AnalyticsWindow; onDaysChange: (days: AnalyticsWindow) => void }) {
  const analytics = useQuery({ ...analyticsQueryOptions(days), placeholderData: keepPreviousData });
  const quiet = analytics.data !== undefined && !analytics.isPlaceholderData && isQuiet(analytics.data);
  // Asked only for a quiet period: has this creator ever sold? (The Sales tab reads the same cache entry.)
  const sales = useInfiniteQuery({ ...salesQueryOptions(), enabled: quiet });
  const neverSold = quiet && sales.data?.pages[0]?.items.length === 0;

  if (analytics.isPending || (quiet && sales.isPending)) return <OverviewLoading />;
  if (neverSold) {
    return <NoSalesYet />;
  }

  return (
    <div className="grid gap-6 *:min-w-0">
      <WindowPicker days={days} onChange={onDaysChange} />
      {analytics.isError ? (
        <LoadFailed message={m.figuresFailed} onRetry={() => void analytics.refetch()} retrying={analytics.isFetching} />
      ) : quiet ? (
        <EmptyState icon={CalendarSearch} title={m.quietWindow(days).title}>
          {m.quietWindow(days).description}
        </EmptyState>
      ) : (
        <OverviewFigures data={analytics.data} busy={analytics.isPlaceholderData} />
      )}
    </div>
  );
}

const isQuiet = (data: CreatorAnalytics): boolean => data.sales === 0 && data.refunds === 0 && data.revenue === 0;

function OverviewFigures({ data, busy }: { data: CreatorAnalytics; busy: boolean }) {
  const period = m.windows[data.days as AnalyticsWindow] ?? `Last ${data.days} days`;
  return (
    <div aria-busy={busy} className={cn('grid gap-6 transition-opacity *:min-w-0', busy && 'opacity-60')}>
      <section aria-label="Key figures" className="grid grid-cols-2 gap-4 *:min-w-0 sm:grid-cols-3">
        <StatCard label="Revenue" value={signedPounds(data.revenue)} detail={`Net of refunds · ${period}`} icon={Banknote} className="col-span-2 sm:col-span-1" />
        <StatCard label="Sales" value={data.sales.toLocaleString('en-GB')} detail={`Courses sold · ${period}`} icon={ReceiptText} />
        <StatCard label="Refunds" value={data.refunds.toLocaleString('en-GB')} detail={`Sales refunded · ${period}`} icon={Undo2} />
      </section>

      <div className="grid gap-6 *:min-w-0 xl:grid-cols-5">
        <Card className="xl:col-span-3">
          <CardHeader>
            <CardTitle>Revenue and sales</CardTitle>
            <CardDescription>
              Per {chartPoints(data.series).unit}, {period.toLowerCase()}.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <figure className="grid gap-3">
              <div aria-hidden="true" className="grid gap-2">
                <ChartLegend />
                <div className="min-w-0" style={{ height: CHART_HEIGHT }}>
                  <Suspense fallback={<Skeleton className="h-full w-full" />}>
                    <RevenueChart series={data.series} />
                  </Suspense>
                </div>
              </div>
              <figcaption className="text-xs text-muted-foreground">{revenueSummary(data)}</figcaption>
            </figure>
          </CardContent>
        </Card>

        <Card className="xl:col-span-2">
          <CardHeader>
            <CardTitle>Revenue by course</CardTitle>
            <CardDescription>Most revenue first, {period.toLowerCase()}.</CardDescription>
          </CardHeader>
          <CardContent>
            {data.byCourse.length === 0 ? (
              <p className="text-sm text-muted-foreground">No course was sold in this period.</p>
            ) : (
              <Table label="Revenue by course">
                <TableHeader>
                  <TableRow>
                    <TableHead>Course</TableHead>
                    <TableHead className="text-right">Sales</TableHead>
                    <TableHead className="text-right">Revenue</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.byCourse.map((course) => (
                    <TableRow key={course.courseId}>
                      <TableCell className="font-medium [overflow-wrap:anywhere]">{course.title}</TableCell>
                      <TableCell className="text-right tabular-nums">{course.sales.toLocaleString('en-GB')}</TableCell>
                      <TableCell className="text-right whitespace-nowrap tabular-nums">{signedPounds(course.revenue)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
      </div>

      <div className="grid gap-6 *:min-w-0 xl:grid-cols-5">
        <Funnel funnel={data.funnel} period={period} className="xl:col-span-3" />
        <CouponUse coupons={data.coupons} period={period} className="xl:col-span-2" />
      </div>
    </div>
  );
}

const percentOf = (part: number, whole: number): string => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '–');

/** Public page views -> checkouts started -> paid, each step with its share of the step before. */
function Funnel({ funnel, period, className }: { funnel: CreatorAnalytics['funnel']; period: string; className?: string }) {
  const steps = [
    { label: 'Course page views', value: funnel.views, share: null },
    { label: 'Checkouts started', value: funnel.checkouts, share: percentOf(funnel.checkouts, funnel.views) },
    { label: 'Paid', value: funnel.paid, share: percentOf(funnel.paid, funnel.checkouts) },
  ];
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>From visit to sale</CardTitle>
        <CardDescription>Your public course pages, {period.toLowerCase()}.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol aria-label="Sales funnel" className="grid gap-3 sm:grid-cols-3">
          {steps.map((step) => (
            <li key={step.label} className="grid gap-1 rounded-lg border p-4">
              <span className="text-sm text-muted-foreground">{step.label}</span>
              <span className="text-2xl font-semibold tabular-nums">{step.value.toLocaleString('en-GB')}</span>
              {step.share !== null && <span className="text-xs text-muted-foreground">{step.share} of the step before</span>}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

/** Each coupon's paid redemptions in the period and the discount they gave, most used first. */
function CouponUse({ coupons, period, className }: { coupons: CreatorAnalytics['coupons']; period: string; className?: string }) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Coupon use</CardTitle>
        <CardDescription>Paid sales with a coupon, {period.toLowerCase()}.</CardDescription>
      </CardHeader>
      <CardContent>
        {coupons.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No coupon was used in this period.{' '}
            <Link to={paths.creator.coupons} className="font-medium text-foreground underline underline-offset-4">
              Your coupons
            </Link>
          </p>
        ) : (
          <Table label="Coupon use">
            <TableHeader>
              <TableRow>
                <TableHead>Coupon</TableHead>
                <TableHead className="text-right">Used</TableHead>
                <TableHead className="text-right">Discount given</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {coupons.map((coupon) => (
                <TableRow key={coupon.code}>
                  <TableCell className="font-mono text-xs [overflow-wrap:anywhere]">{coupon.code}</TableCell>
                  <TableCell className="text-right tabular-nums">{coupon.redemptions.toLocaleString('en-GB')}</TableCell>
                  <TableCell className="text-right whitespace-nowrap tabular-nums">{signedPounds(coupon.discount)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** The period: three toggle buttons, one pressed (Tab reaches each, Space or Enter picks it). */
function WindowPicker({ days, onChange }: { days: AnalyticsWindow; onChange: (days: AnalyticsWindow) => void }) {
  return (
    <div role="group" aria-label="Period" className="flex w-fit max-w-full flex-wrap gap-1 rounded-lg bg-muted p-1">
      {analyticsWindows.map((window) => (
        <button
          key={window}
          type="button"
          aria-pressed={window === days}
          onClick={() => onChange(window)}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors outline-none',
            'hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
            'aria-pressed:bg-background aria-pressed:text-foreground aria-pressed:shadow-sm',
          )}
        >
          {/* On a phone '30 days', '90 days', '12 months' fit one line; the name stays 'Last 30 days'. */}
          <span className="max-sm:sr-only">Last</span> {m.windows[window].replace(/^Last /, '')}
        </button>
      ))}
    </div>
  );
}

function ChartLegend() {
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
      <span className="inline-flex items-center gap-1.5">
        <span className="size-2.5 rounded-sm bg-primary" />
        Revenue
      </span>
      <span className="inline-flex items-center gap-1.5">
        <span className="h-0.5 w-3 rounded-full bg-ring" />
        Sales
      </span>
    </div>
  );
}

/** The overview's shape while its figures load; the words are for screen readers. */
function OverviewLoading() {
  return (
    <div role="status" className="grid gap-6 *:min-w-0">
      <span className="sr-only">{m.loadingFigures}</span>
      <Skeleton className="h-10 w-72 max-w-full sm:w-96" />
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} className={cn('h-[108px] rounded-xl', n === 0 && 'col-span-2 sm:col-span-1')} />
        ))}
      </div>
      <div className="grid gap-6 xl:grid-cols-5">
        <Skeleton className="h-[380px] rounded-xl xl:col-span-3" />
        <Skeleton className="h-[380px] rounded-xl xl:col-span-2" />
      </div>
    </div>
  );
}

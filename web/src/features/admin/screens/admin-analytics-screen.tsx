import { Handshake, PoundSterling, Wallet } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import type { AdminStats } from '@contracts/admin.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { StatCard } from '@/components/ui/stat-card.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { adminMessages as m } from '../admin-messages.ts';
import { useAdminStats } from '../api/use-admin-stats.ts';
import { RecentActivityList } from '../components/recent-activity.tsx';
import { StatsFailed, StatsLoading } from '../components/stats-states.tsx';
import { TotalUsersCard } from '../components/total-users-card.tsx';
import { mrrSummary, signUpsSummary } from '../components/trend-summary.ts';

// The chart library arrives with the charts, not with the admin screens.
const SignUpsChart = lazy(() => import('../components/trend-charts.tsx').then((mod) => ({ default: mod.SignUpsChart })));
const MrrChart = lazy(() => import('../components/trend-charts.tsx').then((mod) => ({ default: mod.MrrChart })));

/**
 * SPEC.md "Admin platform analytics": Total Users (creators, learners), Platform Revenue (the spec's £29 estimate,
 * with the real MRR beside it), Affiliate Network, Commissions (pending), the recent activity and the Revenue
 * Breakdown, all from GET /api/admin/stats; beyond the spec, sign-ups and MRR over the last 12 weeks.
 */
export function AdminAnalyticsScreen() {
  const stats = useAdminStats();
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Platform Analytics" description="Users, revenue and affiliates across the platform." />
      {stats.isPending ? <StatsLoading /> : stats.isError ? <StatsFailed onRetry={() => void stats.refetch()} /> : <AnalyticsBody stats={stats.data} />}
    </div>
  );
}

function AnalyticsBody({ stats }: { stats: AdminStats }) {
  const { users, revenue, affiliates, subscriptions } = stats;
  const hasAffiliates = affiliates.affiliates > 0;
  const count = (n: number, one: string) => `${n.toLocaleString('en-GB')} ${one}${n === 1 ? '' : 's'}`;
  const breakdown = [
    { label: 'Creator subscriptions', share: 70, amount: revenue.breakdown.creatorSubscriptions },
    { label: 'Course licenses', share: 25, amount: revenue.breakdown.courseLicenses },
    { label: 'Platform fees', share: 5, amount: revenue.breakdown.platformFees },
  ];

  return (
    <>
      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <TotalUsersCard users={users} />
        <StatCard
          label="Platform Revenue"
          value={formatPounds(revenue.estimatedMonthly)}
          detail={`Estimated per month (£29 × ${subscriptions.subscribed} subscribed) · MRR ${formatPounds(revenue.mrr)}`}
          icon={PoundSterling}
        />
        <StatCard
          label="Affiliate Network"
          value={hasAffiliates ? count(affiliates.affiliates, 'affiliate') : m.noAffiliates}
          detail={hasAffiliates ? `${count(affiliates.clicks, 'click')} · ${count(affiliates.sales, 'sale')} through their links` : 'Affiliates appear here once creators invite them'}
          icon={Handshake}
        />
        <StatCard
          label="Commissions"
          value={formatPounds(affiliates.commissionsTotal)}
          detail={`${formatPounds(affiliates.pending)} pending · ${formatPounds(affiliates.approved)} approved · ${formatPounds(affiliates.paidOut)} paid out`}
          icon={Wallet}
        />
      </section>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-2">
        <TrendCard title="Sign-ups" description="New accounts per week, last 12 weeks." summary={signUpsSummary(stats.trends.weeks)}>
          <SignUpsChart weeks={stats.trends.weeks} />
        </TrendCard>
        <TrendCard title="Monthly Recurring Revenue" description="Paid-up subscriptions at their plan price." summary={mrrSummary(stats.trends.weeks)}>
          <MrrChart weeks={stats.trends.weeks} />
        </TrendCard>
      </div>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-3">
        <Card className="min-w-0 lg:col-span-2">
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
            <CardDescription>The latest platform events.</CardDescription>
          </CardHeader>
          <CardContent>
            <RecentActivityList items={stats.recentActivity} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Revenue Breakdown</CardTitle>
            <CardDescription>Share of the estimated monthly revenue.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            {breakdown.map(({ label, share, amount }) => (
              <div key={label} className="grid gap-2">
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <span id={`breakdown-${share}`} className="font-medium">
                    {label}
                  </span>
                  <span className="tabular-nums text-muted-foreground">
                    {share}% · {formatPounds(amount)}
                  </span>
                </div>
                <Progress value={share} aria-labelledby={`breakdown-${share}`} />
              </div>
            ))}
          </CardContent>
        </Card>
      </div>
    </>
  );
}

/** A chart with its title and a text summary as the figure's caption (the chart itself is decoration for readers). */
function TrendCard({ title, description, summary, children }: { title: string; description: string; summary: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <figure className="grid gap-3">
          <div aria-hidden="true" className="h-[220px] min-w-0">
            <Suspense fallback={<Skeleton className="h-full w-full" />}>{children}</Suspense>
          </div>
          <figcaption className="text-xs text-muted-foreground">{summary}</figcaption>
        </figure>
      </CardContent>
    </Card>
  );
}

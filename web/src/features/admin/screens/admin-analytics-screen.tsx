import { Handshake, PoundSterling, RotateCw, Users, Wallet } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { SampleDataBadge, StatCard } from '@/components/ui/stat-card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { formatPence, sampleAdminStats, type AdminStats } from '../api/sample-stats.ts';

/**
 * Stand-in for the admin issue's `useAdminStats()` (GET /api/admin/stats through TanStack Query): the same
 * {data, isPending, isError, refetch} shape, so the screen below keeps its loading and error states when the real
 * query replaces it.
 */
function useSampleAdminStats() {
  const [data, setData] = useState<AdminStats | undefined>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => setData(sampleAdminStats), 150);
    return () => clearTimeout(timer);
  }, []);
  return { data, isPending: data === undefined, isError: false as boolean, error: null as Error | null, refetch: () => undefined };
}

export function AdminAnalyticsScreen() {
  const stats = useSampleAdminStats();

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Platform Analytics" description="Users, revenue and affiliates across the platform." actions={<SampleDataBadge />} />
      {stats.isPending ? (
        <div role="status" className="flex items-center justify-center gap-2 rounded-xl border py-16 text-sm text-muted-foreground">
          <Spinner className="size-5" />
          Loading analytics...
        </div>
      ) : stats.isError || !stats.data ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border py-12 text-center">
          <p className="font-medium">Failed to load admin statistics</p>
          <Button variant="outline" onClick={() => stats.refetch()}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : (
        <AnalyticsBody stats={stats.data} />
      )}
    </div>
  );
}

function AnalyticsBody({ stats }: { stats: AdminStats }) {
  const { users, revenue, affiliates } = stats;
  const breakdown = [
    { label: 'Creator subscriptions', share: 70, amount: revenue.breakdown.creatorSubscriptions },
    { label: 'Course licenses', share: 25, amount: revenue.breakdown.courseLicenses },
    { label: 'Platform fees', share: 5, amount: revenue.breakdown.platformFees },
  ];

  return (
    <>
      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label="Total Users"
          value={users.total.toLocaleString('en-GB')}
          detail={`${users.creators.toLocaleString('en-GB')} creators · ${users.learners.toLocaleString('en-GB')} learners`}
          icon={Users}
        />
        <StatCard label="Platform Revenue" value={formatPence(revenue.estimatedMonthly)} detail="Estimated per month" icon={PoundSterling} />
        <StatCard label="Affiliate Network" value={affiliates.affiliates.toLocaleString('en-GB')} detail="Active affiliates" icon={Handshake} />
        <StatCard
          label="Commissions"
          value={formatPence(affiliates.commissionsTotal)}
          detail={`${formatPence(affiliates.pending)} pending`}
          icon={Wallet}
        />
      </section>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-3">
        <Card className="min-w-0 lg:col-span-2">
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
            <CardDescription>The latest platform events.</CardDescription>
          </CardHeader>
          <CardContent>
            <Table label="Recent activity">
              <TableHeader>
                <TableRow>
                  <TableHead>User</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead>Details</TableHead>
                  <TableHead>When</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {stats.recentActivity.map((row) => (
                  <TableRow key={row.id}>
                    <TableCell className="font-medium">{row.who}</TableCell>
                    <TableCell>{row.action}</TableCell>
                    <TableCell className="text-muted-foreground">{row.detail}</TableCell>
                    <TableCell className="whitespace-nowrap text-muted-foreground">{row.when}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
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
                    {share}% · {formatPence(amount)}
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

import { Award, BookOpen, ChartBar, CreditCard, PoundSterling, Settings, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { AdminStats } from '@contracts/admin.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { StatCard } from '@/components/ui/stat-card.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { paths } from '@/lib/paths.ts';
import { useAdminStats } from '../api/use-admin-stats.ts';
import { RecentActivityList } from '../components/recent-activity.tsx';
import { StatsFailed, StatsLoading } from '../components/stats-states.tsx';
import { TotalUsersCard } from '../components/total-users-card.tsx';

/**
 * SPEC.md "Admin dashboard" with real figures instead of its samples (GET /api/admin/stats): the spec's four cards
 * (Total Users, Active Courses = published courses, Revenue = the MRR, Certificates Issued), the recent activity, and
 * the Quick Actions.
 */
export function AdminDashboardScreen() {
  const stats = useAdminStats();
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Admin Dashboard" description="Platform overview and administration." />
      {stats.isPending ? <StatsLoading /> : stats.isError ? <StatsFailed onRetry={() => void stats.refetch()} /> : <DashboardBody stats={stats.data} />}
    </div>
  );
}

function DashboardBody({ stats }: { stats: AdminStats }) {
  const { users, subscriptions, revenue, courses } = stats;
  return (
    <>
      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <TotalUsersCard users={users} />
        <StatCard
          label="Active Courses"
          value={courses.published.toLocaleString('en-GB')}
          detail={`Published of ${courses.total.toLocaleString('en-GB')} courses · ${courses.enrollments.toLocaleString('en-GB')} enrolled, ${courses.completed.toLocaleString('en-GB')} completed`}
          icon={BookOpen}
        />
        <StatCard
          label="Revenue"
          value={formatPounds(revenue.mrr)}
          detail={`MRR · ${subscriptions.subscribed.toLocaleString('en-GB')} subscribed (${subscriptions.onTrial} on trial)`}
          icon={PoundSterling}
        />
        <StatCard label="Certificates Issued" value={stats.certificates.issued.toLocaleString('en-GB')} detail="On course completion" icon={Award} />
      </section>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
            <CardDescription>The latest events across the platform.</CardDescription>
          </CardHeader>
          <CardContent>
            <RecentActivityList items={stats.recentActivity} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
            <CardDescription>Common administration tasks.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-2">
            <Button asChild variant="outline" className="justify-start">
              <Link to={paths.admin.users}>
                <Users aria-hidden="true" />
                Manage Users
              </Link>
            </Button>
            <Button asChild variant="outline" className="justify-start">
              <Link to={paths.admin.analytics}>
                <ChartBar aria-hidden="true" />
                View Analytics
              </Link>
            </Button>
            <Button asChild variant="outline" className="justify-start">
              <Link to={paths.admin.billing}>
                <CreditCard aria-hidden="true" />
                Billing Settings
              </Link>
            </Button>
            <Button asChild variant="outline" className="justify-start">
              <Link to={paths.admin.settings}>
                <Settings aria-hidden="true" />
                Platform Settings
              </Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </>
  );
}

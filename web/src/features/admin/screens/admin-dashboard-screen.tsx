import { Award, BookOpen, ChartBar, CreditCard, PoundSterling, Settings, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { SampleDataBadge, StatCard } from '@/components/ui/stat-card.tsx';
import { paths } from '@/lib/paths.ts';
import { formatPence, sampleAdminStats } from '../api/sample-stats.ts';

// SPEC.md "Admin dashboard": static placeholder cards; the admin issue replaces them with GET /api/admin/stats.
const stats = sampleAdminStats;

export function AdminDashboardScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Admin Dashboard" description="Platform overview and administration." actions={<SampleDataBadge />} />

      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Users" value={stats.users.total.toLocaleString('en-GB')} detail="+12% from last month" icon={Users} />
        <StatCard label="Active Courses" value="89" detail="+4 this week" icon={BookOpen} />
        <StatCard label="Revenue" value={formatPence(stats.revenue.estimatedMonthly)} detail="Estimated this month" icon={PoundSterling} />
        <StatCard label="Certificates Issued" value="456" detail="+32 this month" icon={Award} />
      </section>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
            <CardDescription>The latest events across the platform.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {stats.recentActivity.map((item) => (
                <li key={item.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 first:pt-0 last:pb-0">
                  <div className="min-w-0">
                    <p className="text-sm font-medium">{item.action}</p>
                    <p className="truncate text-sm text-muted-foreground">
                      {item.who} · {item.detail}
                    </p>
                  </div>
                  <p className="text-xs text-muted-foreground">{item.when}</p>
                </li>
              ))}
            </ul>
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
              <Link to={`${paths.admin.settings}#billing`}>
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
    </div>
  );
}

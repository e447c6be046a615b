import { useQuery } from '@tanstack/react-query';
import { Award, KeyRound, Target, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { LeaderSummary, License } from '@contracts/licenses.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { StatCard } from '@/components/ui/stat-card.tsx';
import { paths } from '@/lib/paths.ts';
import { leaderLicensesQueryOptions, leaderSummaryQueryOptions } from '../api/leader-queries.ts';
import { TeamSessions } from '../components/team-sessions.tsx';

/**
 * /dashboard/leader (SPEC.md "Group leader dashboard"): the team's real figures: members holding a seat of a licence
 * that gives access, seats in use, the completion rate, certificates; the most recently active members' progress (all
 * from GET /api/leader/summary), the upcoming live sessions of the licensed courses (issue 30) and each licence's seats.
 * A leader with no licence yet is told how one arrives.
 */
export function LeaderDashboardScreen() {
  const summary = useQuery(leaderSummaryQueryOptions());
  const licenses = useQuery(leaderLicensesQueryOptions());
  const failed = summary.isError || licenses.isError;
  const retry = () => {
    for (const query of [summary, licenses]) if (query.isError) void query.refetch();
  };

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Group Leader Dashboard" description="How your team is learning." />
      {summary.isPending || licenses.isPending ? (
        <div role="status" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <span className="sr-only">Loading your team...</span>
          {[0, 1, 2, 3].map((n) => (
            <Skeleton key={n} className="h-28" />
          ))}
        </div>
      ) : failed ? (
        <LoadFailed message="Your team's figures could not be loaded." onRetry={retry} retrying={summary.isRefetching || licenses.isRefetching} retryLabel="Try again" />
      ) : licenses.data.items.length === 0 ? (
        <EmptyState icon={Users} title="No team yet">
          Your team's members, licences and progress appear here once a course's creator grants your organisation seats, or once you buy seats on a
          course's page.
        </EmptyState>
      ) : (
        <TeamFigures summary={summary.data} licenses={licenses.data.items} />
      )}
    </div>
  );
}

function TeamFigures({ summary, licenses }: { summary: LeaderSummary; licenses: License[] }) {
  const { recent, groups } = summary;
  const seatsUsed = licenses.filter((l) => l.status === 'active').reduce((sum, l) => sum + l.seatsUsed, 0);
  return (
    <>
      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Team Members" value={summary.members.toLocaleString('en-GB')} detail={`In ${groups} ${groups === 1 ? 'group' : 'groups'}`} icon={Users} />
        <StatCard label="Licenses" value={`${seatsUsed} / ${summary.seatsTotal}`} detail="Seats in use" icon={KeyRound} />
        <StatCard
          label="Completion Rate"
          value={summary.completionRate === null ? '–' : `${summary.completionRate}%`}
          detail={summary.completionRate === null ? 'No members yet' : `${summary.completed} of ${summary.members} completed`}
          icon={Target}
        />
        <StatCard label="Certificates" value={String(summary.certificates)} detail="Earned by your team" icon={Award} />
      </section>

      <TeamSessions />

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Team Progress</CardTitle>
            <CardDescription>The most recently active members and their course.</CardDescription>
          </CardHeader>
          <CardContent>
            {recent.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                No members yet. <Link to={paths.leader.groups} className="font-medium text-foreground underline underline-offset-4">Add them in My Groups</Link>.
              </p>
            ) : (
              <ul className="divide-y">
                {recent.map((m) => (
                  <li key={`${m.licenseId}/${m.email}`} className="grid gap-2 py-3 first:pt-0 last:pb-0">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                      <p className="min-w-0 truncate text-sm font-medium">{m.email}</p>
                      <p className="text-xs text-muted-foreground">{m.courseTitle}</p>
                    </div>
                    <div className="flex items-center gap-3">
                      <Progress value={m.progress} aria-label={`${m.email}: ${m.progress}% complete`} className="flex-1" />
                      <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{m.progress}%</span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>License Usage</CardTitle>
            <CardDescription>Seats assigned per licensed course.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {licenses.map((l) => (
                <li key={l.id} className="grid gap-2 py-3 first:pt-0 last:pb-0">
                  <div className="flex items-baseline justify-between gap-3">
                    <p className="min-w-0 truncate text-sm font-medium">{l.courseTitle}</p>
                    <p className="shrink-0 text-xs tabular-nums text-muted-foreground">
                      {l.status === 'ended' ? 'Ended' : `${l.seatsUsed} of ${l.seatsTotal} seats`}
                    </p>
                  </div>
                  <Progress value={l.seatsTotal === 0 ? 0 : (l.seatsUsed / l.seatsTotal) * 100} aria-label={`${l.courseTitle}: ${l.seatsUsed} of ${l.seatsTotal} seats used`} />
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </>
  );
}

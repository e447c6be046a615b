import { useQuery } from '@tanstack/react-query';
import { BookOpen, ChartBar, CirclePlus, Globe, Plug, PoundSterling, RotateCw, Target, Users, UsersRound } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { FeatureKey } from '@contracts/entitlements.ts';
import { PlanRequiredNote } from '@/components/plan-gate.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { StatCard } from '@/components/ui/stat-card.tsx';
import { VerifyEmailBanner } from '@/components/verify-email.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { courseEditorPath, paths } from '@/lib/paths.ts';
import { creatorStatsQueryOptions } from '../api/creator-stats.ts';
import { UnansweredQuestionsCard } from '../components/unanswered-questions-card.tsx';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

// 'Nov 20, 2026' (the viewer's time zone), as the billing cards beside it write dates. By hand, like formatPounds:
// a page's first Intl formatter loads the locale's data, over 100 ms of main thread on a slow phone, while the
// dashboard renders.
const shortMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const formatDate = (iso: string) => {
  const date = new Date(iso);
  return `${shortMonths[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
};

/** The quick actions; `feature`: the plan feature of the writes it leads to (issue 29), so it waits for a plan. */
const quickActions: { label: string; to: string; icon: typeof CirclePlus; feature?: FeatureKey }[] = [
  { label: 'Create Course', to: paths.creator.create, icon: CirclePlus, feature: 'courses' },
  { label: 'Generate Landing Page', to: paths.creator.landing, icon: Globe, feature: 'courses' },
  { label: 'View Learners', to: paths.creator.crm, icon: UsersRound },
  { label: 'Connect Integrations', to: paths.creator.integrations, icon: Plug, feature: 'courses' },
];

/** Where the plan picker (the billing slot) sits on this page: the quick actions' way to a plan. */
const PLANS_ANCHOR = 'choose-plan';

export const NO_PLAN_ACTIONS = 'Creating courses, generating landing pages and connecting integrations need a plan. Your courses, learners and figures stay here to read.';

/**
 * The page's heading, the largest thing on it: app/dashboard-shell.tsx prerenders it into the page head's app shell,
 * so it is on screen at the first paint, where this screen then renders it again.
 */
export function CreatorDashboardHeader() {
  return <PageHeader title="Creator Dashboard" description="Your courses, students and revenue at a glance." />;
}

/**
 * The creator's home. `billing` (the plan, or the plans to choose from) and `credits` (the AI credits card) are
 * slots: app/ composes them in from the billing feature, since features do not import each other.
 */
export function CreatorDashboardScreen({ billing, credits }: { billing?: ReactNode; credits?: ReactNode }) {
  const stats = useQuery(creatorStatsQueryOptions());
  // Without a plan (issue 29) the actions that lead to a write give way to the plan picker above.
  const { locked } = useEntitlements();
  const actions = quickActions.filter((action) => !action.feature || !locked(action.feature));
  const noPlan = actions.length < quickActions.length;
  const actionsTitleId = useId();
  const figure = (value: (data: NonNullable<typeof stats.data>) => string) =>
    stats.data ? value(stats.data) : stats.isError ? '–' : <Skeleton className="h-8 w-16" />;
  return (
    <div className="grid gap-6 *:min-w-0">
      <CreatorDashboardHeader />

      <VerifyEmailBanner />

      {billing && (
        <div id={PLANS_ANCHOR} className="scroll-mt-4">
          {billing}
        </div>
      )}

      <section aria-label="Key figures" aria-busy={stats.isPending || undefined} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="My Courses" value={figure((d) => String(d.courses))} detail="Drafts and published" icon={BookOpen} />
        <StatCard label="Total Students" value={figure((d) => String(d.students))} detail="Active enrolments" icon={Users} />
        <StatCard label="Revenue" value={figure((d) => formatPounds(d.revenuePence))} detail="Course sales" icon={PoundSterling} />
        <StatCard
          label="Completion Rate"
          value={figure((d) => `${d.completionRate}%`)}
          detail={stats.data ? `Of all enrolments · ${stats.data.certificates === 1 ? '1 certificate' : `${stats.data.certificates} certificates`} issued` : 'Of all enrolments'}
          icon={Target}
        />
      </section>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-3">
        <div className="grid content-start gap-6 *:min-w-0 lg:col-span-2">
          <Card>
            <CardHeader>
              <CardTitle>Recent Courses</CardTitle>
              <CardDescription>Your newest courses.</CardDescription>
            </CardHeader>
            <CardContent>
              {stats.isPending ? (
                <div aria-busy="true" className="grid gap-3">
                  <p className="sr-only">Loading your courses...</p>
                  <Skeleton className="h-10" />
                  <Skeleton className="h-10" />
                </div>
              ) : stats.isError ? (
                <div role="alert" className="flex flex-wrap items-center justify-between gap-3 text-sm">
                  Your figures could not be loaded.
                  <Button variant="outline" size="sm" loading={stats.isFetching} onClick={() => void stats.refetch()}>
                    {!stats.isFetching && <RotateCw aria-hidden="true" />}
                    Try again
                  </Button>
                </div>
              ) : stats.data.recentCourses.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  No courses yet.{' '}
                  {locked('courses') ? (
                    <a href={`#${PLANS_ANCHOR}`} className="font-medium text-foreground underline underline-offset-4">
                      Choose a plan to create your first course
                    </a>
                  ) : (
                    <Link to={paths.creator.create} className="font-medium text-foreground underline underline-offset-4">
                      Create your first course
                    </Link>
                  )}
                </p>
              ) : (
                <ul className="divide-y">
                  {stats.data.recentCourses.map((course) => (
                    <li key={course.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 first:pt-0 last:pb-0">
                      <Link to={courseEditorPath(course.id)} className="min-w-0 font-medium break-words hover:underline">
                        {course.title}
                      </Link>
                      <p className="text-xs text-muted-foreground">
                        {course.status === 'published' ? 'Published' : 'Draft'} · {plural(course.lessonCount, 'lesson')} · {plural(course.enrolledCount, 'student')} · Created {formatDate(course.createdAt)}
                      </p>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
          <UnansweredQuestionsCard />
        </div>

        <div className="grid content-start gap-6 *:min-w-0">
          {credits}
          <Card role="region" aria-labelledby={actionsTitleId}>
            <CardHeader>
              <CardTitle id={actionsTitleId}>Quick Actions</CardTitle>
              <CardDescription>Jump to what you do most.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-2">
              {noPlan && (
                <>
                  <PlanRequiredNote plan="starter" reason={NO_PLAN_ACTIONS} upgradable={false} announce={false} />
                  <Button asChild className="h-auto min-h-9 justify-start whitespace-normal">
                    <a href={`#${PLANS_ANCHOR}`}>Choose a plan</a>
                  </Button>
                </>
              )}
              {actions.map(({ label, to, icon: Icon }) => (
                <Button key={to} asChild variant="outline" className="justify-start">
                  <Link to={to}>
                    <Icon aria-hidden="true" />
                    {label}
                  </Link>
                </Button>
              ))}
              <Button asChild variant="ghost" className="justify-start">
                <Link to={paths.creator.analytics}>
                  <ChartBar aria-hidden="true" />
                  See analytics
                </Link>
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}

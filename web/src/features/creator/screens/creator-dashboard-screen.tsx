import { BookOpen, ChartBar, CirclePlus, Globe, Plug, PoundSterling, Target, Users, UsersRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { SampleDataBadge, StatCard } from '@/components/ui/stat-card.tsx';
import { paths } from '@/lib/paths.ts';

// SPEC.md "Creator dashboard": hard-coded samples until the courses issue brings the creator's real figures.
const recentCourses = [
  { id: 'c1', title: 'Watercolour for Beginners', students: 128, completion: 72, updated: 'Updated 2 days ago' },
  { id: 'c2', title: 'Public Speaking Basics', students: 86, completion: 54, updated: 'Updated last week' },
  { id: 'c3', title: 'Excel for Teams', students: 214, completion: 81, updated: 'Updated 3 weeks ago' },
];

const quickActions = [
  { label: 'Create Course', to: paths.creator.create, icon: CirclePlus },
  { label: 'Generate Landing Page', to: paths.creator.landing, icon: Globe },
  { label: 'View Learners', to: paths.creator.crm, icon: UsersRound },
  { label: 'Connect Integrations', to: paths.creator.integrations, icon: Plug },
];

/**
 * The creator's home. `billing` (the plan, or the plans to choose from) and `credits` (the AI credits card) are
 * slots: app/ composes them in from the billing feature, since features do not import each other.
 */
export function CreatorDashboardScreen({ billing, credits }: { billing?: ReactNode; credits?: ReactNode }) {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Creator Dashboard" description="Your courses, students and revenue at a glance." actions={<SampleDataBadge />} />

      {billing}

      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="My Courses" value="12" detail="3 drafts" icon={BookOpen} />
        <StatCard label="Total Students" value="428" detail="+36 this month" icon={Users} />
        <StatCard label="Revenue" value="£3,240" detail="This month" icon={PoundSterling} />
        <StatCard label="Completion Rate" value="68%" detail="Across all courses" icon={Target} />
      </section>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Recent Courses</CardTitle>
            <CardDescription>Your most recently updated courses.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {recentCourses.map((course) => (
                <li key={course.id} className="grid gap-2 py-4 first:pt-0 last:pb-0">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                    <p id={`course-${course.id}`} className="font-medium">
                      {course.title}
                    </p>
                    <p className="text-xs text-muted-foreground">{course.updated}</p>
                  </div>
                  <div className="flex items-center gap-3">
                    <Progress value={course.completion} aria-label={`${course.title}: ${course.completion}% average completion`} className="flex-1" />
                    <span className="w-36 shrink-0 text-right text-xs text-muted-foreground tabular-nums">
                      {course.completion}% · {course.students} students
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>

        <div className="grid content-start gap-6 *:min-w-0">
          {credits}
          <Card>
            <CardHeader>
              <CardTitle>Quick Actions</CardTitle>
              <CardDescription>Jump to what you do most.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-2">
              {quickActions.map(({ label, to, icon: Icon }) => (
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

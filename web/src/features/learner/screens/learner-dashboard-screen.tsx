import { useQuery } from '@tanstack/react-query';
import { Award, BookOpen, CircleCheck, Flame, PlayCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { StatCard } from '@/components/ui/stat-card.tsx';
import { learnerCoursePath, paths } from '@/lib/paths.ts';
import { learnerSummaryQueryOptions } from '../api/learning-queries.ts';
import { MembershipsCard } from '../components/memberships-card.tsx';
import { RecommendedCourses } from '../components/recommended-courses.tsx';
import { UpcomingSessions } from '../components/upcoming-sessions.tsx';

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/**
 * 'My Learning' (SPEC.md): the learner's real figures, their upcoming live sessions (issue 30), the memberships they hold with 'Manage membership' (issue 34), the courses to continue (most recent activity first) and the
 * recommended list (courses the learner may take next, from the creators they learn with).
 */
export function LearnerDashboardScreen() {
  const summary = useQuery(learnerSummaryQueryOptions());
  const data = summary.data;

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="My Learning" description="Pick up where you left off." />

      {summary.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading your learning...
        </p>
      ) : summary.isError ? (
        <EmptyState
          icon={BookOpen}
          title="Your learning could not be loaded"
          action={
            <Button variant="outline" onClick={() => void summary.refetch()}>
              Try again
            </Button>
          }
        />
      ) : (
        <>
          <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            <StatCard label="Enrolled Courses" value={data?.enrolled} detail={`${(data?.enrolled ?? 0) - (data?.completed ?? 0)} in progress`} icon={BookOpen} />
            <StatCard label="Completed" value={data?.completed} detail="Courses finished" icon={CircleCheck} />
            <StatCard label="Certificates" value={data?.certificates} detail="Earned by finishing courses" icon={Award} />
            <StatCard label="Study Streak" value={days(data?.studyStreak ?? 0)} detail={data?.studyStreak ? 'Keep it going!' : 'Complete a lesson to start one'} icon={Flame} />
          </section>

          <UpcomingSessions />

          <MembershipsCard />

          {data?.enrolled === 0 ? (
            <EmptyState icon={BookOpen} title="You are not enrolled in any course yet">
              When a creator invites you to a course, it appears here with your progress and the next lesson to take.
            </EmptyState>
          ) : (
            <Card>
              <CardHeader>
                <CardTitle>Continue Learning</CardTitle>
                <CardDescription>Your courses, most recent first.</CardDescription>
              </CardHeader>
              <CardContent>
                <ul className="divide-y">
                  {data?.continueLearning.map((c) => (
                    <li key={c.courseId} className="grid gap-2 py-4 first:pt-0 last:pb-0">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <p className="min-w-0 font-medium">{c.title}</p>
                        <Button asChild size="sm" variant="outline">
                          <Link to={learnerCoursePath(c.courseId)} aria-label={`Continue ${c.title}`}>
                            <PlayCircle aria-hidden="true" />
                            Continue
                          </Link>
                        </Button>
                      </div>
                      <div className="flex items-center gap-3">
                        <Progress value={c.progress} aria-label={`${c.title}: ${c.progress}% complete`} className="flex-1" />
                        <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{c.progress}%</span>
                      </div>
                    </li>
                  ))}
                </ul>
                <Button asChild variant="link" className="mt-2 px-0">
                  <Link to={paths.learner.courses}>All my courses</Link>
                </Button>
              </CardContent>
            </Card>
          )}
        </>
      )}

      <RecommendedCourses />
    </div>
  );
}

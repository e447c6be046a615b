import { useInfiniteQuery } from '@tanstack/react-query';
import { BookOpen, CircleCheck, PlayCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { learnerCoursePath, paths } from '@/lib/paths.ts';
import { learnerCoursesQueryOptions } from '../api/learning-queries.ts';

/** The courses the learner is enrolled in, most recent activity first, each opening its player; 'Load more' for the next page. */
export function LearnerCoursesScreen() {
  const courses = useInfiniteQuery(learnerCoursesQueryOptions());
  const items = courses.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="My Courses" description="The courses you are enrolled in." />
      {courses.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading your courses...
        </p>
      ) : courses.isError ? (
        <EmptyState
          icon={BookOpen}
          title="Your courses could not be loaded"
          action={
            <Button variant="outline" onClick={() => void courses.refetch()}>
              Try again
            </Button>
          }
        />
      ) : items.length === 0 ? (
        <EmptyState
          icon={BookOpen}
          title="No courses yet"
          action={
            <Button asChild variant="outline">
              <Link to={paths.learner.browse}>Browse courses</Link>
            </Button>
          }
        >
          When a creator invites you to a course, it appears here with your progress and the next lesson to take.
        </EmptyState>
      ) : (
        <div className="grid gap-4">
          <ul className="grid gap-4 md:grid-cols-2">
            {items.map((c) => (
              <li key={c.courseId}>
                <Card className="grid gap-3 p-5">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <h2 className="min-w-0 font-semibold">{c.title}</h2>
                    {c.completedAt && (
                      <Badge variant="secondary">
                        <CircleCheck aria-hidden="true" />
                        Completed
                      </Badge>
                    )}
                  </div>
                  <div className="flex items-center gap-3">
                    <Progress value={c.progress} aria-label={`${c.title}: ${c.progress}% complete`} className="flex-1" />
                    <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{c.progress}%</span>
                  </div>
                  <Button asChild size="sm" className="justify-self-start">
                    <Link to={learnerCoursePath(c.courseId)} aria-label={`${c.completedAt ? 'Review' : 'Continue'} ${c.title}`}>
                      <PlayCircle aria-hidden="true" />
                      {c.completedAt ? 'Review' : 'Continue'}
                    </Link>
                  </Button>
                </Card>
              </li>
            ))}
          </ul>
          <LoadMore pages={courses} />
        </div>
      )}
    </div>
  );
}

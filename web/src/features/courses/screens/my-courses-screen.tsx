import { useInfiniteQuery } from '@tanstack/react-query';
import { BookOpen, CirclePlus, Eye, Pencil, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import type { CourseSummary } from '@contracts/courses.ts';
import { PlanGate } from '@/components/plan-gate.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailedCard } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { courseEditorPath, paths } from '@/lib/paths.ts';
import { coursesQueryOptions } from '../api/course-queries.ts';
import { useDeleteCourse } from '../api/use-course-mutations.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { StatusBadge } from '../components/status-badge.tsx';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

// Without a plan: 'Choose a plan to create courses', to the plan picker (issue 29).
const createButton = (
  <PlanGate feature="courses" label="Create Course" action="create courses" variant="default">
    <Button asChild>
      <Link to={paths.creator.create}>
        <CirclePlus aria-hidden="true" />
        Create Course
      </Link>
    </Button>
  </PlanGate>
);

/**
 * /dashboard/creator/courses: the creator's courses with their status, lessons and learners; edit or delete. Newest
 * first, a page at a time: 'Load more' for the next. Without a plan the courses stay listed, read-only: 'View' instead
 * of 'Edit', no 'Delete', and the way to a plan instead of 'Create Course'.
 */
export function MyCoursesScreen({ banner }: { banner?: ReactNode }) {
  const courses = useInfiniteQuery(coursesQueryOptions());
  const items = courses.data?.pages.flatMap((page) => page.items) ?? [];
  const remove = useDeleteCourse();
  const [deleting, setDeleting] = useState<CourseSummary | undefined>();
  const readOnly = useEntitlements().locked('courses');

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="My Courses" description="Every course you have created." actions={items.length ? createButton : undefined} />
      {banner}
      {courses.isPending ? (
        <div aria-busy="true" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          <p className="sr-only">Loading your courses...</p>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-44 rounded-xl" />
          ))}
        </div>
      ) : courses.isError ? (
        <LoadFailedCard title="Your courses could not be loaded" onRetry={() => void courses.refetch()} retrying={courses.isFetching} />
      ) : items.length === 0 ? (
        <EmptyState icon={BookOpen} title="No courses yet" action={createButton}>
          Create your first course: give it a title, add text and video lessons, publish it and invite your learners.
        </EmptyState>
      ) : (
        <div className="grid gap-4">
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Your courses">
            {items.map((course) => (
              <li key={course.id}>
                <Card className="flex h-full flex-col" data-testid="course-card">
                  <CardHeader className="gap-2">
                    <div className="flex items-start justify-between gap-3">
                      <CardTitle asLevel={2} className="text-lg break-words">
                        <Link to={courseEditorPath(course.id)} className="hover:underline">
                          {course.title}
                        </Link>
                      </CardTitle>
                      <StatusBadge status={course.status} />
                    </div>
                    {course.description && <CardDescription className="line-clamp-2">{course.description}</CardDescription>}
                  </CardHeader>
                  <CardContent className="mt-auto grid gap-4">
                    <p className="text-sm text-muted-foreground">
                      {plural(course.lessonCount, 'lesson')} · {plural(course.enrolledCount, 'learner')}
                    </p>
                    <div className="flex gap-2">
                      <Button asChild variant="outline" size="sm">
                        <Link to={courseEditorPath(course.id)} aria-label={`${readOnly ? 'View' : 'Edit'} ${course.title}`}>
                          {readOnly ? <Eye aria-hidden="true" /> : <Pencil aria-hidden="true" />}
                          {readOnly ? 'View' : 'Edit'}
                        </Link>
                      </Button>
                      {!readOnly && (
                        <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete ${course.title}`} onClick={() => setDeleting(course)}>
                          <Trash2 aria-hidden="true" />
                          Delete
                        </Button>
                      )}
                    </div>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
          <LoadMore pages={courses} />
        </div>
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={`Delete “${deleting?.title ?? ''}”?`}
        action="Delete course"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(undefined) })}
      >
        Its lessons are deleted and its {plural(deleting?.enrolledCount ?? 0, 'learner')} lose access. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}

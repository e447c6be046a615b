import { useInfiniteQuery } from '@tanstack/react-query';
import { BookOpen } from 'lucide-react';
import type { CourseStatus } from '@contracts/courses.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { adminCoursesQueryOptions } from '../api/courses-queries.ts';
import { EmailLoadFailed as LoadFailed, EmailLoading as Loading } from '../components/email-load-states.tsx';

const statusNames: Record<CourseStatus, string> = { draft: 'Draft', published: 'Published' };

/**
 * /dashboard/admin/courses: every creator's courses, newest first, with the creator, status, lessons and enrolled
 * learners; 'Load more' for the next page. On a phone the columns fold under the title.
 */
export function AdminCoursesScreen() {
  const courses = useInfiniteQuery(adminCoursesQueryOptions());
  const rows = courses.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Courses" description="Every course on the platform, newest first, with its creator." />
      {courses.isPending ? (
        <Loading label="Loading courses..." />
      ) : courses.isError ? (
        <LoadFailed message="Failed to load courses" onRetry={() => void courses.refetch()} retrying={courses.isRefetching} />
      ) : rows.length === 0 ? (
        <EmptyState icon={BookOpen} title="No courses yet">
          Courses appear here as soon as a creator starts one, drafts included.
        </EmptyState>
      ) : (
        <Card>
          <CardContent className="grid gap-4 pt-6">
            <Table label="Courses">
              <TableHeader>
                <TableRow>
                  <TableHead>Course</TableHead>
                  <TableHead className="hidden md:table-cell">Creator</TableHead>
                  <TableHead className="hidden sm:table-cell">Status</TableHead>
                  <TableHead className="hidden text-right sm:table-cell">Lessons</TableHead>
                  <TableHead className="text-right">Learners</TableHead>
                  <TableHead className="hidden lg:table-cell">Created</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((course) => (
                  <TableRow key={course.id}>
                    <TableCell>
                      <span className="font-medium [overflow-wrap:anywhere]">{course.title}</span>
                      <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground md:hidden">
                        <span className="[overflow-wrap:anywhere]">{course.creatorEmail ?? 'Creator account removed'}</span>
                        <span className="sm:hidden">
                          <StatusBadge status={course.status} />
                        </span>
                      </span>
                    </TableCell>
                    <TableCell className="hidden [overflow-wrap:anywhere] md:table-cell">{course.creatorEmail ?? 'Creator account removed'}</TableCell>
                    <TableCell className="hidden sm:table-cell">
                      <StatusBadge status={course.status} />
                    </TableCell>
                    <TableCell className="hidden text-right tabular-nums sm:table-cell">{course.lessonCount}</TableCell>
                    <TableCell className="text-right tabular-nums">{course.enrolledCount}</TableCell>
                    <TableCell className="hidden whitespace-nowrap lg:table-cell">{formatDay(course.createdAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <LoadMore pages={courses} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function StatusBadge({ status }: { status: CourseStatus }) {
  return <Badge variant={status === 'published' ? 'default' : 'outline'}>{statusNames[status]}</Badge>;
}

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ClipboardCheck } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { submissionStatuses, type Submission, type SubmissionStatus } from '@contracts/submissions.ts';
import { statusLabels } from '@/components/assignment/submission-status.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Label } from '@/components/ui/label.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { courseChoicesQueryOptions } from '@/lib/course-choices.ts';
import { formatSessionStart } from '@/lib/format-session.ts';
import { cn } from '@/lib/utils.ts';
import { submissionsQueryOptions } from '../api/submission-queries.ts';
import { SubmissionSheet } from '../components/submission-sheet.tsx';

// Native selects, as in the CRM: keyboard and screen-reader friendly, and a phone shows its own picker.
const selectClass = cn(
  'h-10 w-full rounded-md border border-input bg-background px-3 text-base shadow-xs sm:text-sm',
  'outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50',
);

const emptyWords: Record<SubmissionStatus, string> = {
  submitted: 'Nothing is waiting for review. When a learner hands in an assignment, it appears here.',
  passed: 'No submission has passed yet.',
  needs_revision: 'No submission is waiting for a revision.',
};

/**
 * The creator's Submissions (issue 35 point 2): the assignments handed in across their courses, oldest first (the
 * order they came in), filtered by course and status ("Waiting for review" first: the work to do). Each row: the
 * learner's email, the course, the lesson and when it was handed in; 'Open' shows the answer and its files, and grades
 * it (submission-sheet.tsx). On a phone the course, lesson and time fold under the email.
 */
export function SubmissionsScreen() {
  const [courseId, setCourseId] = useState('');
  const [status, setStatus] = useState<SubmissionStatus>('submitted');
  const [open, setOpen] = useState<Submission | null>(null);
  const filterId = useId();
  const courses = useQuery(courseChoicesQueryOptions());
  const titles = useMemo(() => new Map((courses.data?.items ?? []).map((c) => [c.id, c.title])), [courses.data]);
  const courseIds = courseId ? [courseId] : (courses.data?.items ?? []).map((c) => c.id);
  const list = useInfiniteQuery({ ...submissionsQueryOptions(courseIds, status), enabled: courseId !== '' || courses.isSuccess });
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Submissions" description="Assignments your learners handed in. Open one to read it and mark it as passed or ask for a revision." />

      <div className="grid gap-4 sm:grid-cols-2 lg:max-w-2xl">
        <div className="grid gap-2">
          <Label htmlFor={`${filterId}-course`}>Course</Label>
          <select id={`${filterId}-course`} className={selectClass} value={courseId} onChange={(event) => setCourseId(event.target.value)}>
            <option value="">All courses</option>
            {courses.data?.items.map((course) => (
              <option key={course.id} value={course.id}>
                {course.title}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${filterId}-status`}>Status</Label>
          <select id={`${filterId}-status`} className={selectClass} value={status} onChange={(event) => setStatus(event.target.value as SubmissionStatus)}>
            {submissionStatuses.map((value) => (
              <option key={value} value={value}>
                {statusLabels[value]}
              </option>
            ))}
          </select>
        </div>
      </div>

      {courses.isError && !courseId ? (
        <LoadFailed message="Your courses could not be loaded." onRetry={() => void courses.refetch()} retrying={courses.isFetching} />
      ) : list.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading submissions...
        </p>
      ) : list.isError && rows.length === 0 ? (
        <LoadFailed message="The submissions could not be loaded." onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : rows.length === 0 ? (
        <EmptyState icon={ClipboardCheck} title={courseIds.length === 0 ? 'No courses yet' : 'No submissions'}>
          {courseIds.length === 0 ? 'Create a course with an assignment lesson; what your learners hand in appears here.' : emptyWords[status]}
        </EmptyState>
      ) : (
        <Card className="p-2">
          <Table label={`Submissions: ${statusLabels[status]}`}>
            <TableHeader>
              <TableRow>
                <TableHead>Learner</TableHead>
                <TableHead className="hidden sm:table-cell">Course</TableHead>
                <TableHead className="hidden sm:table-cell">Lesson</TableHead>
                <TableHead className="hidden sm:table-cell">Submitted</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} data-testid="submission-row">
                  <TableCell className="sm:min-w-48">
                    <span className="font-medium break-all">{row.learnerEmail}</span>
                    {/* On a phone the other columns fold under the email, so 'Open' stays in view. */}
                    <span className="mt-1 block text-xs text-muted-foreground sm:hidden" aria-hidden="true">
                      {titles.get(row.courseId) ?? 'A course'} · {row.lessonTitle} · {formatSessionStart(row.submittedAt)}
                    </span>
                  </TableCell>
                  <TableCell className="hidden min-w-32 sm:table-cell">{titles.get(row.courseId) ?? 'A course'}</TableCell>
                  <TableCell className="hidden min-w-32 sm:table-cell">{row.lessonTitle}</TableCell>
                  <TableCell className="hidden whitespace-nowrap sm:table-cell">
                    <time dateTime={row.submittedAt}>{formatSessionStart(row.submittedAt)}</time>
                  </TableCell>
                  <TableCell className="text-right">
                    <Button variant="outline" size="sm" aria-label={`Open the submission of ${row.learnerEmail} for ${row.lessonTitle}`} onClick={() => setOpen(row)}>
                      Open
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}

      {list.isError && rows.length > 0 && <LoadFailed message="More submissions could not be loaded." onRetry={() => void list.fetchNextPage()} retrying={list.isFetchingNextPage} />}
      <LoadMore pages={list} />

      <SubmissionSheet submission={open} courseTitle={open ? (titles.get(open.courseId) ?? '') : ''} onClose={() => setOpen(null)} />
    </div>
  );
}

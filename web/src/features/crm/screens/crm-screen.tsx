import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { UsersRound } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import type { CrmLearner } from '@contracts/courses.ts';
import { PlanRequiredNote } from '@/components/plan-gate.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Label } from '@/components/ui/label.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { courseChoicesQueryOptions } from '@/lib/course-choices.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { cn } from '@/lib/utils.ts';
import { crmLearnersQueryOptions } from '../api/crm-queries.ts';
import { LearnerDetailsSheet } from '../components/learner-details-sheet.tsx';
import { crmMessages as m } from '../crm-messages.ts';
import { formatDay } from '@/lib/format-date.ts';

export type CrmSort = 'enrolled' | 'progress' | 'activity';

/** Sorts the loaded rows only (the server pages newest enrolment first): least progress / oldest activity first. */
export function sortLearners(rows: CrmLearner[], sort: CrmSort): CrmLearner[] {
  if (sort === 'progress') return [...rows].sort((a, b) => a.progress - b.progress);
  if (sort === 'activity') return [...rows].sort((a, b) => a.lastActivity.localeCompare(b.lastActivity));
  return rows;
}

// Native selects, as in the landing feature: keyboard and screen-reader friendly, and a phone shows its own picker.
const selectClass = cn(
  'h-10 w-full rounded-md border border-input bg-background px-3 text-base shadow-xs sm:text-sm',
  'outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50',
);

/**
 * SPEC.md's Learner CRM: every enrolment in the creator's courses, one row each (Learner with the 'Joined' date,
 * Course, Progress, Last Activity, 'View Details'), page by page. Beyond the spec: a course filter (the server's),
 * a sort of the loaded rows, and a 'Stalled' badge for learners idle for 14 days.
 */
export function CrmScreen() {
  const [courseId, setCourseId] = useState('');
  const [sort, setSort] = useState<CrmSort>('enrolled');
  const [openId, setOpenId] = useState<string | null>(null);
  const learners = useInfiniteQuery(crmLearnersQueryOptions(courseId || undefined));
  const courses = useQuery(courseChoicesQueryOptions());
  const filterId = useId();
  const readOnly = useEntitlements().locked('courses');

  useEffect(() => {
    if (learners.isError) toast.error(m.loadFailed.title, { description: m.loadFailed.description });
  }, [learners.isError]);

  const rows = useMemo(() => sortLearners(learners.data?.pages.flatMap((page) => page.items) ?? [], sort), [learners.data, sort]);
  // The open row is looked up in the cache, so saved notes reach the panel's row too.
  const open = openId ? (rows.find((row) => row.id === openId) ?? null) : null;

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Learner CRM" description="The learners enrolled in your courses, their progress and your notes." />
      {readOnly && <PlanRequiredNote plan="starter" reason={m.noPlan} announce={false} />}

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
          <Label htmlFor={`${filterId}-sort`}>Sort by</Label>
          <select id={`${filterId}-sort`} className={selectClass} value={sort} onChange={(event) => setSort(event.target.value as CrmSort)}>
            <option value="enrolled">Newest enrolment</option>
            <option value="progress">Progress (lowest first)</option>
            <option value="activity">Last activity (oldest first)</option>
          </select>
        </div>
      </div>

      {learners.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> {m.loading}
        </p>
      ) : learners.isError ? (
        <EmptyState
          icon={UsersRound}
          title={m.loadFailed.description}
          action={
            <Button variant="outline" onClick={() => void learners.refetch()}>
              Try again
            </Button>
          }
        />
      ) : rows.length === 0 ? (
        <EmptyState icon={UsersRound} title="No learners yet">
          {m.empty}
        </EmptyState>
      ) : (
        <Card className="p-2">
          <Table label="Enrolled learners">
            <TableHeader>
              <TableRow>
                <TableHead>Learner</TableHead>
                <TableHead>Course</TableHead>
                <TableHead>Progress</TableHead>
                <TableHead>Last Activity</TableHead>
                <TableHead>Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={`${row.courseId}-${row.id}`}>
                  <TableCell className="min-w-56">
                    <div className="grid gap-0.5">
                      <span className="font-medium break-all">{row.email}</span>
                      <span className="text-xs text-muted-foreground">Joined {formatDay(row.createdAt)}</span>
                    </div>
                  </TableCell>
                  <TableCell className="min-w-32">{row.courseName}</TableCell>
                  <TableCell>
                    <div className="flex min-w-32 items-center gap-2">
                      <Progress value={row.progress} aria-label={`${row.email} in ${row.courseName}: ${row.progress}% complete`} className="flex-1" />
                      <span className="w-10 text-right text-xs tabular-nums">{row.progress}%</span>
                    </div>
                  </TableCell>
                  <TableCell>
                    <div className="flex flex-wrap items-center gap-2 whitespace-nowrap">
                      <time dateTime={row.lastActivity}>{formatDay(row.lastActivity)}</time>
                      {row.stalled && (
                        <Badge variant="outline" title="No lesson activity for 14 days">
                          Stalled
                        </Badge>
                      )}
                    </div>
                  </TableCell>
                  <TableCell>
                    <Button variant="outline" size="sm" aria-label={`View Details of ${row.email}`} onClick={() => setOpenId(row.id)}>
                      View Details
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}

      <LoadMore pages={learners} />

      <LearnerDetailsSheet learner={open} onClose={() => setOpenId(null)} />
    </div>
  );
}

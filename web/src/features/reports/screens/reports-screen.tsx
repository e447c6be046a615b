import { useId } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { BarChart3 } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import type { CourseReport } from '@contracts/reports.ts';
import { PlanRequiredCard } from '@/components/plan-gate.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { StatCard } from '@/components/ui/stat-card.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { courseReportQueryOptions, reportCoursesQueryOptions } from '../api/reports-queries.ts';
import { ExportButtons } from '../components/export-buttons.tsx';
import { LessonFunnel } from '../components/lesson-funnel.tsx';
import { percent, QuizTable } from '../components/quiz-table.tsx';
import { reportsMessages as m } from '../reports-messages.ts';

const isPlanRequired = (error: unknown): boolean => error instanceof ApiError && error.code === 'PLAN_REQUIRED';

/**
 * The page's own PLAN_REQUIRED state (the server refuses a plan without detailed reports): what the page is for and
 * where to upgrade. The plan-wide lock and upgrade path are the screens' shared component (issue 29 point 2).
 */
function PlanRequired() {
  return <PlanRequiredCard title={m.planTitle} reason={m.planBody} />;
}

function ReportSkeleton() {
  return (
    <div className="grid gap-6" role="status" aria-busy="true">
      <span className="sr-only">{m.loading}</span>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-28" />
        ))}
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}

function Figures({ report }: { report: CourseReport }) {
  const n = (value: number) => value.toLocaleString('en-GB');
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <StatCard label={m.figures.enrolled} value={n(report.enrolled)} detail={m.figureDetail.enrolled} />
      <StatCard label={m.figures.started} value={n(report.started)} detail={m.figureDetail.started} />
      <StatCard label={m.figures.completed} value={n(report.completed)} detail={m.figureDetail.completed} />
      <StatCard label={m.figures.completionRate} value={percent(report.completionRate)} detail={m.figureDetail.completionRate} />
    </div>
  );
}

/** The chosen course's report: loading, the plan refusal, a failure with retry, no learners yet, or the figures. */
function CourseReportView({ report }: { report: UseQueryResult<CourseReport> }) {
  if (report.isPending) return <ReportSkeleton />;
  if (report.isError) {
    if (isPlanRequired(report.error)) return <PlanRequired />;
    return <LoadFailed message={m.reportFailed} onRetry={() => void report.refetch()} retrying={report.isFetching} />;
  }
  const data = report.data;
  return (
    <div className="grid gap-6 *:min-w-0">
      <Figures report={data} />
      {data.enrolled === 0 && data.started === 0 ? (
        <EmptyState icon={BarChart3} title={m.noLearners}>
          {m.noLearnersBody}
        </EmptyState>
      ) : (
        <>
          <LessonFunnel report={data} />
          <QuizTable report={data} />
        </>
      )}
    </div>
  );
}

/**
 * /dashboard/creator/reports (Pro): pick a course (`?course=` in the address, the first course by default); its four
 * figures, the lesson funnel and the quiz table; the three CSV exports below.
 */
export function ReportsScreen() {
  const pickerId = useId();
  const [params, setParams] = useSearchParams();
  const courses = useQuery(reportCoursesQueryOptions());
  const items = courses.data?.items ?? [];
  const chosen = items.find((c) => c.id === params.get('course'))?.id ?? items[0]?.id;
  const report = useQuery({ ...courseReportQueryOptions(chosen ?? ''), enabled: chosen !== undefined });
  // A plan without detailed reports: the exports are refused too, so they are not offered.
  const planRefused = isPlanRequired(report.error);

  const pick = (courseId: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('course', courseId);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      {courses.isPending ? (
        <ReportSkeleton />
      ) : courses.isError ? (
        <LoadFailed message={m.coursesFailed} onRetry={() => void courses.refetch()} retrying={courses.isFetching} />
      ) : !chosen ? (
        <EmptyState icon={BarChart3} title={m.noCourses}>
          {m.noCoursesBody}
        </EmptyState>
      ) : (
        <>
          <div className="grid grid-cols-1 gap-2 sm:max-w-96">
            <label htmlFor={pickerId} className="text-sm font-medium">
              {m.coursePicker}
            </label>
            <Select value={chosen} onValueChange={pick}>
              <SelectTrigger id={pickerId}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {items.map((course) => (
                  <SelectItem key={course.id} value={course.id}>
                    {course.title}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <CourseReportView report={report} />
        </>
      )}
      {!planRefused && <ExportButtons />}
    </div>
  );
}

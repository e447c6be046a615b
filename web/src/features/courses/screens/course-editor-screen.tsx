import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Eye, EyeOff, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Course } from '@contracts/courses.ts';
import { PlanRequiredCard } from '@/components/plan-gate.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailedCard } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { ApiError } from '@/lib/api-error.ts';
import { paths } from '@/lib/paths.ts';
import { courseQueryOptions } from '../api/course-queries.ts';
import { useDeleteCourse, useUpdateCourse } from '../api/use-course-mutations.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { DiscussionsPanel } from '../components/discussions-panel.tsx';
import { CertificatesPanel } from '../components/certificates-panel.tsx';
import { CourseDetailsForm } from '../components/course-details-form.tsx';
import { LearnersPanel } from '../components/learners-panel.tsx';
import { LessonsPanel } from '../components/lessons-panel.tsx';
import { LicensesPanel } from '../components/licenses-panel.tsx';
import { PricingForm } from '../components/pricing-form.tsx';
import { SessionsPanel } from '../components/sessions-panel.tsx';
import { StatusBadge } from '../components/status-badge.tsx';

const backLink = (
  <Button asChild variant="ghost" size="sm" className="w-fit">
    <Link to={paths.creator.courses}>
      <ArrowLeft aria-hidden="true" />
      My Courses
    </Link>
  </Button>
);

/**
 * /dashboard/creator/courses/:courseId: the course's details, publishing, lessons, learners, team licences,
 * certificates and live sessions. Lessons, details and certificates on the left, publishing, pricing, learners and licences on the right (stacked on a phone). Another creator's course, or a
 * deleted one, is 'not found'.
 */
export function CourseEditorScreen() {
  const { courseId = '' } = useParams();
  const course = useQuery(courseQueryOptions(courseId));

  if (course.isPending) {
    return (
      <div aria-busy="true" className="grid gap-6">
        <p className="sr-only">Loading the course...</p>
        <Skeleton className="h-9 w-72 max-w-full" />
        <div className="grid gap-6 lg:grid-cols-3">
          <Skeleton className="h-80 rounded-xl lg:col-span-2" />
          <Skeleton className="h-60 rounded-xl" />
        </div>
      </div>
    );
  }
  if (course.isError) {
    const missing = course.error instanceof ApiError && course.error.status === 404;
    return (
      <div className="grid gap-6 *:min-w-0">
        {backLink}
        {missing ? (
          <EmptyState title="Course not found">It may have been deleted. Your courses are listed under My Courses.</EmptyState>
        ) : (
          <LoadFailedCard title="The course could not be loaded" titleLevel={1} onRetry={() => void course.refetch()} retrying={course.isFetching} />
        )}
      </div>
    );
  }
  return <CourseEditor course={course.data} />;
}

function CourseEditor({ course }: { course: Course }) {
  const update = useUpdateCourse(course.id);
  const remove = useDeleteCourse();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const published = course.status === 'published';
  // Without a plan the course is read-only (issue 29): everything shown, nothing to press that the server refuses.
  const readOnly = useEntitlements().locked('courses');

  return (
    <div className="grid gap-6 *:min-w-0">
      {backLink}
      <PageHeader title={course.title} description={<StatusBadge status={course.status} />} />
      {readOnly && <PlanRequiredCard plan="starter" title="Choose a plan to edit this course" reason={READ_ONLY_REASON} />}
      <div className="grid gap-6 *:min-w-0 lg:grid-cols-3">
        <div className="grid min-w-0 content-start gap-6 *:min-w-0 lg:col-span-2">
          <fieldset disabled={readOnly} aria-label={readOnly ? 'Course content (read-only)' : undefined} className="grid min-w-0 content-start gap-6 *:min-w-0">
            <LessonsPanel course={course} />
            <Card aria-labelledby="details-title" role="region">
              <CardHeader>
                <CardTitle id="details-title">Details</CardTitle>
              </CardHeader>
              <CardContent>
                <CourseDetailsForm
                  key={course.updatedAt}
                  label="Course details"
                  initial={{ title: course.title, description: course.description }}
                  onSubmit={(body) => update.mutate(body)}
                  actions={
                    <Button type="submit" loading={update.isPending && update.variables.title !== undefined}>
                      Save details
                    </Button>
                  }
                />
              </CardContent>
            </Card>
            <CertificatesPanel courseId={course.id} courseTitle={course.title} />
          </fieldset>
          {/* Outside the read-only fieldset: without a plan the sessions stay listed and cancelling stays allowed. */}
          <SessionsPanel courseId={course.id} readOnly={readOnly} />
          {/* Outside it too: answering and moderating learners needs no plan (issue 35 point 1). */}
          <DiscussionsPanel course={course} />
        </div>
        <div className="grid content-start gap-6 *:min-w-0">
          <Card aria-labelledby="publish-title" role="region">
            <CardHeader>
              <CardTitle id="publish-title">Publishing</CardTitle>
              <CardDescription>
                {published
                  ? 'Published: enrolled learners can take this course.'
                  : course.lessons.length === 0
                    ? 'Draft: only you see it. Add a lesson, then publish it.'
                    : 'Draft: only you see it. Publish it when it is ready.'}
              </CardDescription>
            </CardHeader>
            {!readOnly && (
            <CardContent className="flex flex-col gap-2">
              <Button
                variant={published ? 'outline' : 'default'}
                loading={update.isPending && update.variables.status !== undefined}
                onClick={() => update.mutate({ status: published ? 'draft' : 'published' })}
              >
                {published ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                {published ? 'Unpublish' : 'Publish'}
              </Button>
              <Button variant="ghost" className="text-destructive hover:text-destructive" onClick={() => setDeleting(true)}>
                <Trash2 aria-hidden="true" />
                Delete course
              </Button>
            </CardContent>
            )}
          </Card>
          <Card aria-labelledby="pricing-title" role="region">
            <CardHeader>
              <CardTitle id="pricing-title">Pricing</CardTitle>
              <CardDescription>
                {course.priceAmount > 0 ? `${formatPounds(course.priceAmount)} a learner` : 'Not for sale yet.'}
                {course.seatPriceAmount > 0 ? `; ${formatPounds(course.seatPriceAmount)} a seat for teams.` : ''} Buyers pay you directly through your own Stripe account.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <fieldset disabled={readOnly} className="min-w-0">
              <PricingForm
                key={course.updatedAt}
                initial={{ priceAmount: course.priceAmount, seatPriceAmount: course.seatPriceAmount }}
                busy={update.isPending && update.variables.priceAmount !== undefined}
                onSubmit={(body) => update.mutate(body)}
              />
              </fieldset>
            </CardContent>
          </Card>
          {/* Inviting and removing learners need a plan too; the learners stay listed. */}
          <fieldset disabled={readOnly} className="min-w-0">
            <LearnersPanel courseId={course.id} courseTitle={course.title} />
          </fieldset>
          <LicensesPanel courseId={course.id} courseTitle={course.title} />
        </div>
      </div>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete “${course.title}”?`}
        action="Delete course"
        busy={remove.isPending}
        onConfirm={() => remove.mutate(course.id, { onSuccess: () => void navigate(paths.creator.courses) })}
      >
        Its {course.lessons.length === 1 ? 'lesson is' : `${course.lessons.length} lessons are`} deleted and its {course.enrolledCount === 1 ? 'learner loses' : `${course.enrolledCount} learners lose`} access. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}

/** Why a course of a creator without a plan is read-only. */
const READ_ONLY_REASON = 'Your course and its learners are kept as they are; editing, publishing and pricing need a plan. Choose Starter or Pro to carry on.';

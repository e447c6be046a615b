import { Link, useNavigate } from 'react-router-dom';
import { PlanRequiredCard } from '@/components/plan-gate.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { courseEditorPath, paths } from '@/lib/paths.ts';
import { useCreateCourse } from '../api/use-course-mutations.ts';
import { AiOutlineCard } from '../components/ai-outline-card.tsx';
import { CourseDetailsForm } from '../components/course-details-form.tsx';

/**
 * /dashboard/creator/create: a title and a description make a draft course; its editor opens next for lessons. Without
 * a plan: the way to one instead of a form the server would refuse (issue 29).
 */
export function CreateCourseScreen() {
  const create = useCreateCourse();
  const navigate = useNavigate();
  const locked = useEntitlements().locked('courses');
  return (
    <div className="grid max-w-2xl gap-6 *:min-w-0">
      <PageHeader title="Create Course" description="Start with a title and a description; add lessons next." />
      {locked ? (
        <PlanRequiredCard plan="starter" title="Choose a plan to create courses" reason={NO_PLAN_REASON} />
      ) : (
      <>
      <AiOutlineCard onCreated={(courseId) => void navigate(courseEditorPath(courseId))} />
      <Card>
        <CardHeader>
          <CardTitle>Course details</CardTitle>
          <CardDescription>The course starts as a draft: only you see it until you publish it.</CardDescription>
        </CardHeader>
        <CardContent>
          <CourseDetailsForm
            label="Create a course"
            onSubmit={(body) => create.mutate(body, { onSuccess: (created) => void navigate(courseEditorPath(created.id)) })}
            actions={
              <>
                <Button type="submit" loading={create.isPending}>
                  Create course
                </Button>
                <Button asChild variant="outline">
                  <Link to={paths.creator.courses}>Cancel</Link>
                </Button>
              </>
            }
          />
        </CardContent>
      </Card>
      </>
      )}
    </div>
  );
}

/** Why a creator without a plan cannot create or edit (their courses stay, read-only). */
export const NO_PLAN_REASON = 'Creating and editing courses needs a plan. Everything you made is kept: choose Starter or Pro to carry on.';

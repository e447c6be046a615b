import { Link, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { courseEditorPath, paths } from '@/lib/paths.ts';
import { useCreateCourse } from '../api/use-course-mutations.ts';
import { CourseDetailsForm } from '../components/course-details-form.tsx';

/** /dashboard/creator/create: a title and a description make a draft course; its editor opens next for lessons. */
export function CreateCourseScreen() {
  const create = useCreateCourse();
  const navigate = useNavigate();
  return (
    <div className="grid max-w-2xl gap-6 *:min-w-0">
      <PageHeader title="Create Course" description="Start with a title and a description; add lessons next." />
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
    </div>
  );
}

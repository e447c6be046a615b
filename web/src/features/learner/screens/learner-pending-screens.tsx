import { Award, BookOpen, Compass } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { paths } from '@/lib/paths.ts';

// Sidebar entries whose screens arrive with the enrolment issue: each names what will appear here.

export function LearnerCoursesScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="My Courses" description="The courses you are enrolled in." />
      <EmptyState
        icon={BookOpen}
        title="No courses yet"
        action={
          <Button asChild variant="outline">
            <Link to={paths.learner.browse}>Browse courses</Link>
          </Button>
        }
      >
        The courses you are enrolled in will appear here with your progress and the next lesson to take.
      </EmptyState>
    </div>
  );
}

export function LearnerBrowseScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Browse" description="Find your next course." />
      <EmptyState icon={Compass} title="The course catalogue is on its way">
        Courses open to you, from your creators and your team's licences, will be listed here to enrol in.
      </EmptyState>
    </div>
  );
}

export function LearnerCertificatesScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Certificates" description="Proof of the courses you completed." />
      <EmptyState icon={Award} title="No certificates yet">
        Finish a course to earn its certificate: each one will appear here, ready to download and share.
      </EmptyState>
    </div>
  );
}

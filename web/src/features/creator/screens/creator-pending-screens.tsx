import { BookOpen, ChartBar, CirclePlus, Plug, UsersRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { paths } from '@/lib/paths.ts';

// Sidebar entries whose real content arrives with later issues: each names what will appear here.

export function CreatorCoursesScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="My Courses" description="Every course you have created." />
      <EmptyState
        icon={BookOpen}
        title="No courses yet"
        action={
          <Button asChild>
            <Link to={paths.creator.create}>
              <CirclePlus aria-hidden="true" />
              Create Course
            </Link>
          </Button>
        }
      >
        Your courses will be listed here with their students, completion and licences.
      </EmptyState>
    </div>
  );
}

export function CreateCourseScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Create Course" description="Build a new course step by step." />
      <EmptyState icon={CirclePlus} title="The course builder is on its way">
        Here you will give your course a title and description, add modules and lessons, upload files and publish it.
      </EmptyState>
    </div>
  );
}

export function CrmScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Learner CRM" description="The learners enrolled in your courses." />
      <EmptyState icon={UsersRound} title="Your learners will appear here">
        Each learner enrolled in your courses, with their course, progress and last activity, private notes, and quick
        actions to send resources or encouragement.
      </EmptyState>
    </div>
  );
}

export function IntegrationsScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Live Session Integrations" description="Connect the tools you run live sessions with." />
      <EmptyState icon={Plug} title="Integrations are on their way">
        Connect Zoom, Microsoft Teams and Google Calendar here, and see whether each one is connected.
      </EmptyState>
    </div>
  );
}

export function CreatorAnalyticsScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Analytics" description="How your courses and sales perform." />
      <EmptyState icon={ChartBar} title="No analytics yet">
        Enrolments, completion, revenue per course and sales from coupons and affiliates will be charted here.
      </EmptyState>
    </div>
  );
}

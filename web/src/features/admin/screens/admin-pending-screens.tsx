import { BookOpen } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';

// Sidebar entries whose screens arrive with the admin issue: each says what will appear here.

export function AdminCoursesScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Courses" description="Every course on the platform." />
      <EmptyState icon={BookOpen} title="No courses to review yet">
        All courses published by creators will be listed here, with their creator, enrolments and completion rates.
      </EmptyState>
    </div>
  );
}

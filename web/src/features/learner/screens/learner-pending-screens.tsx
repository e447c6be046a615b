import { Award, Compass } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { paths } from '@/lib/paths.ts';

// Sidebar entries whose content arrives with later issues (the catalogue, certificates): each says what will come.

export function LearnerBrowseScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Browse" description="Find your next course." />
      <EmptyState
        icon={Compass}
        title="The course catalogue is on its way"
        action={
          <Button asChild variant="outline">
            <Link to={paths.learner.courses}>Go to my courses</Link>
          </Button>
        }
      >
        Courses open to you, from your creators and your team&apos;s licences, will be listed here to enrol in. Until
        then, creators invite you to their courses by email.
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

import { Award } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';

// Sidebar entries whose content arrives with later issues (certificates): each says what will come.

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

import { FileText, Settings } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';

// Sidebar entries whose screens arrive with the licensing issue: each names what will appear here.

export function LeaderReportsScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Reports" description="Progress and completion reports for your team." />
      <EmptyState icon={FileText} title="No reports yet">
        Completion, certificates and activity reports for your groups will be available here.
      </EmptyState>
    </div>
  );
}

export function LeaderSettingsScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Settings" description="Your group leader preferences." />
      <EmptyState icon={Settings} title="Settings are on their way">
        Notification preferences and group defaults will be managed here.
      </EmptyState>
    </div>
  );
}

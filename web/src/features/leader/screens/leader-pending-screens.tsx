import { FileText, KeyRound, Settings, Users } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';

// Sidebar entries whose screens arrive with the licensing issue: each names what will appear here.

export function LeaderGroupsScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="My Groups" description="The teams you lead." />
      <EmptyState icon={Users} title="No groups yet">
        Your groups and their members will be listed here, with each member's courses and progress.
      </EmptyState>
    </div>
  );
}

export function LeaderLicensesScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Licenses" description="Course seats licensed to your organisation." />
      <EmptyState icon={KeyRound} title="No licenses yet">
        The courses licensed to your team, the seats in use and who holds them will appear here.
      </EmptyState>
    </div>
  );
}

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

import { AccountDetails } from '@/components/ui/account-details.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { useProfile } from '@/lib/session-hooks.ts';

export function LearnerProfileScreen() {
  const profile = useProfile();
  return (
    <div className="grid max-w-2xl gap-6 *:min-w-0">
      <PageHeader title="Profile" description="Your account." />
      <AccountDetails profile={profile.data} />
    </div>
  );
}

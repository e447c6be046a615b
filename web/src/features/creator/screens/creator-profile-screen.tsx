import type { ReactNode } from 'react';
import { AccountDetails } from '@/components/ui/account-details.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { useProfile } from '@/lib/session-hooks.ts';

/** /dashboard/creator/profile: the account, and the payments section app/routes/creator-profile.tsx puts beside it. */
export function CreatorProfileScreen({ payments }: { payments?: ReactNode }) {
  const profile = useProfile();
  return (
    <div className="grid max-w-2xl gap-6 *:min-w-0">
      <PageHeader title="Profile" description="Your account and how you get paid." />
      <AccountDetails profile={profile.data} />
      {payments}
    </div>
  );
}

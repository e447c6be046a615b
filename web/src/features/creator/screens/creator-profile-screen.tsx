import type { ReactNode } from 'react';
import { AccountDetails } from '@/components/ui/account-details.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { DeleteAccountSection } from '@/components/delete-account-section.tsx';
import { YourDataSection } from '@/components/your-data-section.tsx';
import { useProfile } from '@/lib/session-hooks.ts';
import { DiscussionEmailsCard } from '../components/discussion-emails-card.tsx';

/**
 * /dashboard/creator/profile: the account, and what app/routes/creator-profile.tsx puts beside it: the public profile
 * visitors see (storefront feature) and the payments section (payouts feature); then the discussion emails, the
 * person's data and the account's deletion.
 */
export function CreatorProfileScreen({ payments, publicProfile }: { payments?: ReactNode; publicProfile?: ReactNode }) {
  const profile = useProfile();
  return (
    <div className="grid max-w-2xl gap-6 *:min-w-0">
      <PageHeader title="Profile" description="Your account, how visitors see you and how you get paid." />
      <AccountDetails profile={profile.data} />
      {publicProfile}
      {payments}
      <DiscussionEmailsCard />
      <YourDataSection />
      <DeleteAccountSection role="creator" />
    </div>
  );
}

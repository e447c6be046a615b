import { CreatorProfileScreen } from '@/features/creator/screens/creator-profile-screen.tsx';
import { PaymentsSection } from '@/features/payouts/components/payments-section.tsx';
import { PublicProfileSection } from '@/features/storefront/components/public-profile-section.tsx';

/** /dashboard/creator/profile: the creator's account with the storefront's Public profile and the payouts feature's Payments section. */
export function CreatorProfileRoute() {
  return <CreatorProfileScreen publicProfile={<PublicProfileSection />} payments={<PaymentsSection />} />;
}

import { CreatorProfileScreen } from '@/features/creator/screens/creator-profile-screen.tsx';
import { PaymentsSection } from '@/features/payouts/components/payments-section.tsx';

/** /dashboard/creator/profile: the creator's account with the payouts feature's Payments section. */
export function CreatorProfileRoute() {
  return <CreatorProfileScreen payments={<PaymentsSection />} />;
}

import { AiCreditsCard } from '@/features/billing/components/ai-credits-card.tsx';
import { SubscriptionPanel } from '@/features/billing/components/subscription-panel.tsx';
import { CreatorDashboardScreen } from '@/features/creator/screens/creator-dashboard-screen.tsx';
import { PricingPlans } from '@/features/marketing/components/pricing-plans.tsx';

/**
 * /dashboard/creator: the creator's dashboard with its billing slots filled. Composed here because it joins three
 * features (creator, billing, and marketing's pricing cards), which never import each other.
 */
export function CreatorDashboardRoute() {
  return (
    <CreatorDashboardScreen
      billing={<SubscriptionPanel pricing={<PricingPlans headingLevel={3} cancelPath="/dashboard/creator" />} />}
      credits={<AiCreditsCard />}
    />
  );
}

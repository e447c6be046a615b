import { AiCreditsCard } from '@/features/billing/components/ai-credits-card.tsx';
import { SubscriptionPanel } from '@/features/billing/components/subscription-panel.tsx';
import { CreatorDashboardScreen } from '@/features/creator/screens/creator-dashboard-screen.tsx';
import { PricingPlans } from '@/features/marketing/components/pricing-plans.tsx';
import { paths } from '@/lib/paths.ts';

/**
 * /dashboard/creator: the creator's dashboard with its billing slots filled. Composed here because it joins three
 * features (creator, billing, and marketing's pricing cards), which never import each other: the billing panel
 * hands the cards what they need of the subscription (whether the free trial is still on offer).
 */
export function CreatorDashboardRoute() {
  return (
    <CreatorDashboardScreen
      billing={
        <SubscriptionPanel
          pricing={({ trialAvailable }) => (
            <PricingPlans headingLevel={3} cancelPath={paths.creator.dashboard} trialAvailable={trialAvailable} />
          )}
        />
      }
      credits={<AiCreditsCard />}
    />
  );
}

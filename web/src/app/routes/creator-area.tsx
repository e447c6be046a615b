import { Outlet, useLocation, useMatch } from 'react-router-dom';
import type { PlanType } from '@contracts/plans.ts';
import { UpgradeHost } from '@/components/plan-gate.tsx';
import { useBillingPortal } from '@/features/billing/api/use-billing-portal.ts';
import { TrialBanner } from '@/features/billing/components/trial-banner.tsx';
import { useCreateCheckout } from '@/features/marketing/api/use-create-checkout.ts';
import { paths, urlOf } from '@/lib/paths.ts';

/**
 * Frame of every creator page: the trial (or failed payment) banner above the page, except on the dashboard
 * itself, whose plan panel says the same in full; and the upgrade dialog every locked control and PLAN_REQUIRED
 * refusal opens (issue 29), its buttons the billing feature's portal and the pricing cards' checkout.
 */
export function CreatorArea() {
  const onDashboard = useMatch(paths.creator.dashboard) !== null;
  return (
    <>
      {!onDashboard && <TrialBanner planPath={paths.creator.dashboard} />}
      <Outlet />
      <CreatorUpgrade />
    </>
  );
}

function CreatorUpgrade() {
  const { pathname } = useLocation();
  const portal = useBillingPortal();
  const checkout = useCreateCheckout();
  const actions = {
    // Back to where the creator was when they chose to upgrade, if they cancel at the provider.
    checkout: (planType: PlanType) => checkout.mutate({ planType, successUrl: urlOf(paths.checkoutSuccess), cancelUrl: urlOf(pathname) }),
    portal: () => portal.mutate(),
    busy: portal.busy || checkout.busy,
  };
  return <UpgradeHost actions={actions} />;
}

import { Outlet, useMatch } from 'react-router-dom';
import { TrialBanner } from '@/features/billing/components/trial-banner.tsx';

const dashboardPath = '/dashboard/creator';

/**
 * Frame of every creator page: the trial (or failed payment) banner above the page, except on the dashboard
 * itself, whose plan panel says the same in full.
 */
export function CreatorArea() {
  const onDashboard = useMatch(dashboardPath) !== null;
  return (
    <>
      {!onDashboard && <TrialBanner planPath={dashboardPath} />}
      <Outlet />
    </>
  );
}

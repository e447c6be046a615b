import { Outlet, useMatch } from 'react-router-dom';
import { TrialBanner } from '@/features/billing/components/trial-banner.tsx';
import { paths } from '@/lib/paths.ts';

/**
 * Frame of every creator page: the trial (or failed payment) banner above the page, except on the dashboard
 * itself, whose plan panel says the same in full.
 */
export function CreatorArea() {
  const onDashboard = useMatch(paths.creator.dashboard) !== null;
  return (
    <>
      {!onDashboard && <TrialBanner planPath={paths.creator.dashboard} />}
      <Outlet />
    </>
  );
}

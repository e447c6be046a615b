import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { CreatorDashboardHeader } from '@/features/creator/screens/creator-dashboard-screen.tsx';
import { DashboardFrame, SignOutButton } from '@/features/dashboard/screens/dashboard-layout.tsx';
import { paths } from '@/lib/paths.ts';
import type { Role } from '@/lib/roles.ts';

/** A page the session hint paints before any module runs (app/session-hint.ts): its path, its role, its markup. */
export interface DashboardShell {
  path: string;
  role: Role;
  html: string;
}

/**
 * The signed-in creator's dashboard as an app shell, rendered at build time from the components that render it later
 * (the dashboard frame with the creator's sidebar, and the page's heading inside the screen's own grid), so the
 * shell and React's first render are the same boxes: the heading, the page's largest element, paints at the first
 * paint and nothing moves when React takes over. The email is left empty (the hint fills it in from the stored ID
 * token); React's real page replaces the shell once its route is loaded (main.tsx).
 */
export function prerenderDashboardShells(): DashboardShell[] {
  const creator = renderToString(
    <MemoryRouter initialEntries={[paths.creator.dashboard]}>
      <DashboardFrame role="creator" email="" signOut={<SignOutButton signingOut={{ current: false }} />}>
        <div className="grid gap-6 *:min-w-0">
          <CreatorDashboardHeader />
        </div>
      </DashboardFrame>
    </MemoryRouter>,
  );
  return [{ path: paths.creator.dashboard, role: 'creator', html: creator }];
}

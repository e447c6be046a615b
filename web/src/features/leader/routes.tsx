import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/leader/*: children of the leader-only route (the router adds the guard). Every screen is lazy. */
export const leaderRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./screens/leader-dashboard-screen.tsx').then((m) => ({ Component: m.LeaderDashboardScreen })) },
  { path: paths.leader.groups, lazy: () => import('./screens/leader-groups-screen.tsx').then((m) => ({ Component: m.LeaderGroupsScreen })) },
  { path: paths.leader.licenses, lazy: () => import('./screens/leader-licenses-screen.tsx').then((m) => ({ Component: m.LeaderLicensesScreen })) },
  { path: paths.leader.reports, lazy: () => import('./screens/leader-reports-screen.tsx').then((m) => ({ Component: m.LeaderReportsScreen })) },
  { path: paths.leader.settings, lazy: () => import('./screens/leader-settings-screen.tsx').then((m) => ({ Component: m.LeaderSettingsScreen })) },
];

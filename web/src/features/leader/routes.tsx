import type { RouteObject } from 'react-router-dom';

/** /dashboard/leader/*: children of the leader-only route (the router adds the guard). Every screen is lazy. */
export const leaderRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./screens/leader-dashboard-screen.tsx').then((m) => ({ Component: m.LeaderDashboardScreen })) },
  { path: 'groups', lazy: () => import('./screens/leader-pending-screens.tsx').then((m) => ({ Component: m.LeaderGroupsScreen })) },
  { path: 'licenses', lazy: () => import('./screens/leader-pending-screens.tsx').then((m) => ({ Component: m.LeaderLicensesScreen })) },
  { path: 'reports', lazy: () => import('./screens/leader-pending-screens.tsx').then((m) => ({ Component: m.LeaderReportsScreen })) },
  { path: 'settings', lazy: () => import('./screens/leader-pending-screens.tsx').then((m) => ({ Component: m.LeaderSettingsScreen })) },
];

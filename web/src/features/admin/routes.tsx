import type { RouteObject } from 'react-router-dom';

/** /dashboard/admin/*: children of the admin-only route (the router adds the guard). Every screen is lazy. */
export const adminRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./screens/admin-dashboard-screen.tsx').then((m) => ({ Component: m.AdminDashboardScreen })) },
  { path: 'analytics', lazy: () => import('./screens/admin-analytics-screen.tsx').then((m) => ({ Component: m.AdminAnalyticsScreen })) },
  { path: 'emails', lazy: () => import('./screens/admin-emails-screen.tsx').then((m) => ({ Component: m.AdminEmailsScreen })) },
  { path: 'users', lazy: () => import('./screens/admin-pending-screens.tsx').then((m) => ({ Component: m.AdminUsersScreen })) },
  { path: 'courses', lazy: () => import('./screens/admin-pending-screens.tsx').then((m) => ({ Component: m.AdminCoursesScreen })) },
  { path: 'settings', lazy: () => import('./screens/admin-pending-screens.tsx').then((m) => ({ Component: m.AdminSettingsScreen })) },
];

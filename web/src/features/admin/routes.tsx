import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/admin/*: children of the admin-only route (the router adds the guard). Every screen is lazy. */
export const adminRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./screens/admin-dashboard-screen.tsx').then((m) => ({ Component: m.AdminDashboardScreen })) },
  { path: paths.admin.analytics, lazy: () => import('./screens/admin-analytics-screen.tsx').then((m) => ({ Component: m.AdminAnalyticsScreen })) },
  { path: paths.admin.emails, lazy: () => import('./screens/admin-emails-screen.tsx').then((m) => ({ Component: m.AdminEmailsScreen })) },
  { path: paths.admin.users, lazy: () => import('./screens/admin-users-screen.tsx').then((m) => ({ Component: m.AdminUsersScreen })) },
  { path: paths.admin.courses, lazy: () => import('./screens/admin-courses-screen.tsx').then((m) => ({ Component: m.AdminCoursesScreen })) },
  { path: paths.admin.settings, lazy: () => import('./screens/admin-settings-screen.tsx').then((m) => ({ Component: m.AdminSettingsScreen })) },
  { path: paths.admin.audit, lazy: () => import('./screens/admin-audit-screen.tsx').then((m) => ({ Component: m.AdminAuditScreen })) },
];

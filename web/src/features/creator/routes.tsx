import type { RouteObject } from 'react-router-dom';

/**
 * /dashboard/creator/*: children of the creator-only route (the router adds the guard). Every screen is lazy.
 * The index (the dashboard with its billing slots) is composed by app/routes/creator-dashboard.tsx.
 */
export const creatorRoutes: RouteObject[] = [
  { path: 'courses', lazy: () => import('./screens/creator-pending-screens.tsx').then((m) => ({ Component: m.CreatorCoursesScreen })) },
  { path: 'create', lazy: () => import('./screens/creator-pending-screens.tsx').then((m) => ({ Component: m.CreateCourseScreen })) },
  { path: 'landing', lazy: () => import('./screens/creator-pending-screens.tsx').then((m) => ({ Component: m.LandingPageScreen })) },
  { path: 'crm', lazy: () => import('./screens/creator-pending-screens.tsx').then((m) => ({ Component: m.CrmScreen })) },
  { path: 'integrations', lazy: () => import('./screens/creator-pending-screens.tsx').then((m) => ({ Component: m.IntegrationsScreen })) },
  { path: 'analytics', lazy: () => import('./screens/creator-pending-screens.tsx').then((m) => ({ Component: m.CreatorAnalyticsScreen })) },
  { path: 'profile', lazy: () => import('./screens/creator-profile-screen.tsx').then((m) => ({ Component: m.CreatorProfileScreen })) },
];

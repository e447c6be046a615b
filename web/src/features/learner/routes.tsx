import type { RouteObject } from 'react-router-dom';

/** /dashboard/learner/*: children of the learner-only route (the router adds the guard). Every screen is lazy. */
export const learnerRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./screens/learner-dashboard-screen.tsx').then((m) => ({ Component: m.LearnerDashboardScreen })) },
  { path: 'courses', lazy: () => import('./screens/learner-pending-screens.tsx').then((m) => ({ Component: m.LearnerCoursesScreen })) },
  { path: 'browse', lazy: () => import('./screens/learner-pending-screens.tsx').then((m) => ({ Component: m.LearnerBrowseScreen })) },
  { path: 'certificates', lazy: () => import('./screens/learner-pending-screens.tsx').then((m) => ({ Component: m.LearnerCertificatesScreen })) },
  { path: 'profile', lazy: () => import('./screens/learner-profile-screen.tsx').then((m) => ({ Component: m.LearnerProfileScreen })) },
];

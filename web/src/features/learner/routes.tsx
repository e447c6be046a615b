import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/learner/*: children of the learner-only route (the router adds the guard). Every screen is lazy. */
export const learnerRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./screens/learner-dashboard-screen.tsx').then((m) => ({ Component: m.LearnerDashboardScreen })) },
  { path: paths.learner.courses, lazy: () => import('./screens/learner-courses-screen.tsx').then((m) => ({ Component: m.LearnerCoursesScreen })) },
  { path: paths.learner.course, lazy: () => import('./screens/course-player-screen.tsx').then((m) => ({ Component: m.CoursePlayerScreen })) },
  { path: paths.learner.browse, lazy: () => import('./screens/learner-browse-screen.tsx').then((m) => ({ Component: m.LearnerBrowseScreen })) },
  { path: paths.learner.certificates, lazy: () => import('./screens/learner-pending-screens.tsx').then((m) => ({ Component: m.LearnerCertificatesScreen })) },
  { path: paths.learner.profile, lazy: () => import('./screens/learner-profile-screen.tsx').then((m) => ({ Component: m.LearnerProfileScreen })) },
];

import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';
import { requireRole } from '@/lib/session-guards.ts';

/** /dashboard/learner/*: children of the learner-only route (the router adds the guard). Every screen is lazy. */
export const learnerRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./screens/learner-dashboard-screen.tsx').then((m) => ({ Component: m.LearnerDashboardScreen })) },
  { path: paths.learner.courses, lazy: () => import('./screens/learner-courses-screen.tsx').then((m) => ({ Component: m.LearnerCoursesScreen })) },
  { path: paths.learner.course, lazy: () => import('./screens/course-player-screen.tsx').then((m) => ({ Component: m.CoursePlayerScreen })) },
  { path: paths.learner.browse, lazy: () => import('./screens/learner-browse-screen.tsx').then((m) => ({ Component: m.LearnerBrowseScreen })) },
  { path: paths.learner.certificates, lazy: () => import('./screens/learner-certificates-screen.tsx').then((m) => ({ Component: m.LearnerCertificatesScreen })) },
  { path: paths.learner.profile, lazy: () => import('./screens/learner-profile-screen.tsx').then((m) => ({ Component: m.LearnerProfileScreen })) },
];

/**
 * Outside the dashboard's frame: the printable copy of one of the learner's certificates (`/certificates/:id/print`),
 * which the browser's print dialog saves as a PDF. Learners only; lazy like the rest.
 */
export const learnerPrintRoutes: RouteObject[] = [
  {
    path: paths.certificates.print,
    loader: requireRole(['learner']),
    lazy: () => import('./screens/certificate-print-screen.tsx').then((m) => ({ Component: m.CertificatePrintScreen })),
  },
];

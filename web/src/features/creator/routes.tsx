import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/**
 * /dashboard/creator/*: children of the creator-only route (the router adds the guard). Every screen is lazy.
 * The index (the dashboard with its billing slots) is composed by app/routes/creator-dashboard.tsx, the landing
 * page generator (the landing feature with the AI credits card) by app/routes/creator-landing.tsx, the profile (with
 * the payouts feature's Payments section) by app/routes/creator-profile.tsx; the course
 * builder's pages (My Courses, Create Course, the course editor) are the courses feature's, added by app/router.tsx.
 */
export const creatorRoutes: RouteObject[] = [
  { path: paths.creator.analytics, lazy: () => import('./screens/creator-pending-screens.tsx').then((m) => ({ Component: m.CreatorAnalyticsScreen })) },
];

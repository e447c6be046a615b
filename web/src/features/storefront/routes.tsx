import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/**
 * The public storefront: a course's page (`/c/:courseId`) and a creator's page (`/u/:slug`). No guard: visitors need
 * no account and the pages never load Amplify (a stored session only adds its token to the API calls). Lazy chunks.
 */
export const storefrontRoutes: RouteObject[] = [
  { path: paths.storefront.course, lazy: () => import('./screens/course-page-screen.tsx').then((m) => ({ Component: m.CoursePageScreen })) },
  { path: paths.storefront.creator, lazy: () => import('./screens/creator-page-screen.tsx').then((m) => ({ Component: m.CreatorPageScreen })) },
];

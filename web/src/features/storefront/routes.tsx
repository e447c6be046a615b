import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/**
 * The public storefront: a course's page (`/c/:courseId`), a creator's page (`/u/:slug`) and a certificate's page
 * (`/verify/:id`, where anyone checks it). No guard: visitors need no account and the pages never load Amplify (a
 * stored session only adds its token to the API calls). Lazy chunks.
 */
export const storefrontRoutes: RouteObject[] = [
  { path: paths.storefront.course, lazy: () => import('./screens/course-page-screen.tsx').then((m) => ({ Component: m.CoursePageScreen })) },
  { path: paths.storefront.creator, lazy: () => import('./screens/creator-page-screen.tsx').then((m) => ({ Component: m.CreatorPageScreen })) },
  { path: paths.certificates.verify, lazy: () => import('./screens/verify-certificate-screen.tsx').then((m) => ({ Component: m.VerifyCertificateScreen })) },
];

/** `/` on a creator's custom domain: their page, as `/u/:slug` shows it (app/router.tsx uses it in place of the landing page). */
export const storefrontHomeRoutes = (slug: string): RouteObject[] => [
  { index: true, lazy: () => import('./screens/creator-page-screen.tsx').then((m) => ({ Component: () => <m.CreatorPageScreen slug={slug} /> })) },
];

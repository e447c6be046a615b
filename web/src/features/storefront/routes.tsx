import { Outlet, type RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';
import type { StorefrontSite } from './storefront-host.ts';
import { StorefrontSiteProvider } from './storefront-site.tsx';

/**
 * The public storefront: a course's page (`/c/:courseId`), a creator's page (`/u/:slug`), a bundle's page (`/b/:bundleId`), a membership's (`/m/:membershipId`) and a certificate's page
 * (`/verify/:id`, where anyone checks it). No guard: visitors need no account and the pages never load Amplify (a
 * stored session only adds its token to the API calls). Lazy chunks.
 */
export const storefrontRoutes: RouteObject[] = [
  { path: paths.storefront.course, lazy: () => import('./screens/course-page-screen.tsx').then((m) => ({ Component: m.CoursePageScreen })) },
  { path: paths.storefront.creator, lazy: () => import('./screens/creator-page-screen.tsx').then((m) => ({ Component: m.CreatorPageScreen })) },
  { path: paths.storefront.bundle, lazy: () => import('./screens/bundle-page-screen.tsx').then((m) => ({ Component: m.BundlePageScreen })) },
  { path: paths.storefront.membership, lazy: () => import('./screens/membership-page-screen.tsx').then((m) => ({ Component: m.MembershipPageScreen })) },
  { path: paths.certificates.verify, lazy: () => import('./screens/verify-certificate-screen.tsx').then((m) => ({ Component: m.VerifyCertificateScreen })) },
];

/**
 * Every route of the SPA on a creator's custom domain (storefront-host.ts; app/router.tsx uses these in place of the
 * whole app): `/` their page, as `/u/:slug` shows it; `/c/:courseId`, `/b/:bundleId` and `/verify/:id`, which show only
 * their courses, their bundles and their courses' certificates; anything else (sign-in, dashboards, `/u/...`) the storefront's not-found page,
 * linking to the platform. The pages read the site (their links, whose course) from its context.
 */
export const storefrontSiteRoutes = (site: StorefrontSite): RouteObject[] => [
  {
    Component: () => (
      <StorefrontSiteProvider site={site}>
        <Outlet />
      </StorefrontSiteProvider>
    ),
    children: [
      site.creatorSlug === null
        ? { index: true, lazy: () => import('./screens/storefront-not-found-screen.tsx').then((m) => ({ Component: m.StorefrontNotFoundScreen })) }
        : { index: true, lazy: () => import('./screens/creator-page-screen.tsx').then((m) => ({ Component: () => <m.CreatorPageScreen slug={site.creatorSlug!} /> })) },
      ...storefrontRoutes.filter((route) => route.path !== paths.storefront.creator),
      { path: '*', lazy: () => import('./screens/storefront-not-found-screen.tsx').then((m) => ({ Component: m.StorefrontNotFoundScreen })) },
    ],
  },
];

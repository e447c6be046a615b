import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { LoadingScreen } from '@/components/ui/loading-screen.tsx';
import { adminRoutes } from '@/features/admin/routes.tsx';
import { affiliatesRoutes } from '@/features/affiliates/routes.tsx';
import { authRoutes } from '@/features/auth/routes.tsx';
import { billingRoutes } from '@/features/billing/routes.tsx';
import { couponsRoutes } from '@/features/coupons/routes.tsx';
import { bundlesRoutes } from '@/features/bundles/routes.tsx';
import { membershipsRoutes } from '@/features/memberships/routes.tsx';
import { sequencesRoutes } from '@/features/sequences/routes.tsx';
import { courseRoutes } from '@/features/courses/routes.tsx';
import { crmRoutes } from '@/features/crm/routes.tsx';
import { brandingRoutes } from '@/features/branding/routes.tsx';
import { apiReferenceRoutes, developersRoutes } from '@/features/developers/routes.tsx';
import { domainsRoutes } from '@/features/domains/routes.tsx';
import { integrationsRoutes } from '@/features/integrations/routes.tsx';
import { leaderRoutes } from '@/features/leader/routes.tsx';
import { learnerPrintRoutes, learnerRoutes } from '@/features/learner/routes.tsx';
import { marketingRoutes } from '@/features/marketing/routes.tsx';
import { reportsRoutes } from '@/features/reports/routes.tsx';
import { salesRoutes } from '@/features/sales/routes.tsx';
import { submissionsRoutes } from '@/features/submissions/routes.tsx';
import { storefrontRoutes, storefrontSiteRoutes } from '@/features/storefront/routes.tsx';
import type { StorefrontSite } from '@/features/storefront/storefront-host.ts';
import { adminSupportRoutes, supportRoutes } from '@/features/support/routes.tsx';
import { paths } from '@/lib/paths.ts';
import { dashboardRedirect, homeRedirect, requireRole } from '@/lib/session-guards.ts';
import { RootLayout } from './root-layout.tsx';
import { RouteErrorScreen } from './routes/error-screen.tsx';

/** `/`: the marketing page for anonymous visitors; the loader sends a signed-in user to their dashboard first. */
const homeRoutes: RouteObject[] = marketingRoutes.map((route) => (route.index ? { ...route, loader: homeRedirect } : route));

/**
 * /dashboard/creator: a frame with the billing banner, the dashboard composed from the creator, billing and
 * marketing features, the landing-page generator composed from the landing and billing features, My Courses and
 * the profile with the payouts feature's banner and Payments section (app/routes/, since features never import
 * each other); the course builder is the courses feature's, the learner CRM the crm
 * feature's, Live Session Integrations the integrations feature's, Coupons the coupons feature's, Bundles the bundles feature's, Memberships the memberships feature's, Affiliates the affiliates feature's, Analytics (sales and refunds) the sales feature's, Reports the reports feature's, Developers (API keys, webhooks) the developers feature's, Domains the domains feature's, Submissions the submissions feature's.
 */
const creatorArea: RouteObject = {
  path: paths.creator.dashboard,
  loader: requireRole(['creator']),
  lazy: () => import('./routes/creator-area.tsx').then((m) => ({ Component: m.CreatorArea })),
  children: [
    { index: true, lazy: () => import('./routes/creator-dashboard.tsx').then((m) => ({ Component: m.CreatorDashboardRoute })) },
    { path: paths.creator.landing, lazy: () => import('./routes/creator-landing.tsx').then((m) => ({ Component: m.CreatorLandingRoute })) },
    { path: paths.creator.courses, lazy: () => import('./routes/creator-courses.tsx').then((m) => ({ Component: m.CreatorCoursesRoute })) },
    { path: paths.creator.profile, lazy: () => import('./routes/creator-profile.tsx').then((m) => ({ Component: m.CreatorProfileRoute })) },
    ...courseRoutes,
    ...salesRoutes,
    ...crmRoutes,
    ...integrationsRoutes,
    ...couponsRoutes,
    ...bundlesRoutes,
    ...membershipsRoutes,
    ...sequencesRoutes,
    ...affiliatesRoutes,
    ...brandingRoutes,
    ...reportsRoutes,
    ...developersRoutes,
    ...domainsRoutes,
    ...supportRoutes,
    ...submissionsRoutes,
  ],
};

/**
 * SPEC.md section 2's route table, every path from lib/paths.ts (absolute even when nested). Every screen is a lazy chunk (the initial bundle holds only the router, the query
 * client, Amplify's session and these tiny route lists); guards are loaders, so a redirect happens before any
 * screen code loads, and each role's area is guarded once, for all of its pages.
 */
export const appRoutes: RouteObject[] = [
  {
    path: paths.home,
    Component: RootLayout,
    ErrorBoundary: RouteErrorScreen,
    HydrateFallback: LoadingScreen,
    children: [
      ...homeRoutes,
      ...authRoutes,
      ...billingRoutes,
      ...storefrontRoutes,
      ...apiReferenceRoutes,
      ...learnerPrintRoutes,
      {
        path: paths.dashboard,
        children: [
          // The loader always redirects; the Component only satisfies the router (a leaf must render something).
          { index: true, loader: dashboardRedirect, Component: LoadingScreen },
          {
            lazy: () => import('@/features/dashboard/screens/dashboard-layout.tsx').then((m) => ({ Component: m.DashboardLayout })),
            children: [
              { path: paths.admin.dashboard, loader: requireRole(['admin']), children: [...adminRoutes, ...adminSupportRoutes] },
              creatorArea,
              { path: paths.leader.dashboard, loader: requireRole(['leader']), children: leaderRoutes },
              { path: paths.learner.dashboard, loader: requireRole(['learner']), children: learnerRoutes },
            ],
          },
        ],
      },
      { path: '*', lazy: () => import('./routes/not-found.tsx').then((m) => ({ Component: m.NotFoundRoute })) },
    ],
  },
];

/**
 * The SPA on a creator's custom domain (features/storefront/storefront-host.ts): that creator's storefront and
 * nothing else, in the same root (its loading bar, its error screen).
 */
export const storefrontAppRoutes = (site: StorefrontSite): RouteObject[] => [
  { path: paths.home, Component: RootLayout, ErrorBoundary: RouteErrorScreen, HydrateFallback: LoadingScreen, children: storefrontSiteRoutes(site) },
];

/** The app's router; on a creator's custom domain, their storefront's. */
export function createAppRouter(site?: StorefrontSite) {
  return createBrowserRouter(site ? storefrontAppRoutes(site) : appRoutes);
}

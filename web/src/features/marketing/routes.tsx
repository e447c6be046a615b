import type { RouteObject } from 'react-router-dom';

/**
 * The marketing landing page at `/`. Kept to one lazy entry: this file sits in the initial chunk (the router
 * imports it), the page itself arrives as its own chunk. The router adds the loader that sends signed-in users on.
 */
export const marketingRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./screens/landing-screen.tsx').then((m) => ({ Component: m.LandingScreen })) },
];

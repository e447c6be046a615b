import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/analytics: children of the creator-only route (the router adds the guard). Lazy. */
export const salesRoutes: RouteObject[] = [
  { path: paths.creator.analytics, lazy: () => import('./screens/sales-analytics-screen.tsx').then((m) => ({ Component: m.SalesAnalyticsScreen })) },
];

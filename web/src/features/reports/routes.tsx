import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/reports: a child of the creator-only route (the router adds the guard). Lazy. */
export const reportsRoutes: RouteObject[] = [
  { path: paths.creator.reports, lazy: () => import('./screens/reports-screen.tsx').then((m) => ({ Component: m.ReportsScreen })) },
];

import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/domains: a child of the creator-only route (the router adds the guard). Lazy. */
export const domainsRoutes: RouteObject[] = [
  { path: paths.creator.domains, lazy: () => import('./screens/domains-screen.tsx').then((m) => ({ Component: m.DomainsScreen })) },
];

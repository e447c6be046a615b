import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/memberships: a child of the creator-only area (app/router.tsx adds it there). Lazy. */
export const membershipsRoutes: RouteObject[] = [
  { path: paths.creator.memberships, lazy: () => import('./screens/memberships-screen.tsx').then((m) => ({ Component: m.MembershipsScreen })) },
];

import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/coupons: a child of the creator-only area (app/router.tsx adds it there). Lazy. */
export const couponsRoutes: RouteObject[] = [
  { path: paths.creator.coupons, lazy: () => import('./screens/coupons-screen.tsx').then((m) => ({ Component: m.CouponsScreen })) },
];

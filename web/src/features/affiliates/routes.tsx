import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/affiliates: a child of the creator-only area (app/router.tsx adds it there). Lazy. */
export const affiliatesRoutes: RouteObject[] = [
  { path: paths.creator.affiliates, lazy: () => import('./screens/affiliates-screen.tsx').then((m) => ({ Component: m.AffiliatesScreen })) },
];

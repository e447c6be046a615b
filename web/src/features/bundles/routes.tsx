import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/bundles: a child of the creator-only area (app/router.tsx adds it there). Lazy. */
export const bundlesRoutes: RouteObject[] = [
  { path: paths.creator.bundles, lazy: () => import('./screens/bundles-screen.tsx').then((m) => ({ Component: m.BundlesScreen })) },
];

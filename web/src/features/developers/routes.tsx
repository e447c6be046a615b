import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/developers: a child of the creator-only route (the router adds the guard). Lazy. */
export const developersRoutes: RouteObject[] = [
  { path: paths.creator.developers, lazy: () => import('./screens/developers-screen.tsx').then((m) => ({ Component: m.DevelopersScreen })) },
];

/** /developers/api: the public API's reference (no sign-in; Swagger UI loads in this route's chunk only). Lazy. */
export const apiReferenceRoutes: RouteObject[] = [
  { path: paths.apiReference, lazy: () => import('./screens/api-reference-screen.tsx').then((m) => ({ Component: m.ApiReferenceScreen })) },
];

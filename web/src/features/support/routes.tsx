import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/support: a child of the creator-only area (app/router.tsx adds it there). Lazy. */
export const supportRoutes: RouteObject[] = [
  { path: paths.creator.support, lazy: () => import('./screens/support-screen.tsx').then((m) => ({ Component: m.SupportScreen })) },
];

/** /dashboard/admin/support: a child of the admin-only route (app/router.tsx adds it there). Lazy. */
export const adminSupportRoutes: RouteObject[] = [
  { path: paths.admin.support, lazy: () => import('./screens/admin-support-screen.tsx').then((m) => ({ Component: m.AdminSupportScreen })) },
];

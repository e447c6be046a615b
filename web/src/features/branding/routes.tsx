import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/branding: a child of the creator-only route (the router adds the guard). Lazy. */
export const brandingRoutes: RouteObject[] = [{ path: paths.creator.branding, lazy: () => import('./screens/branding-screen.tsx').then((m) => ({ Component: m.BrandingScreen })) }];

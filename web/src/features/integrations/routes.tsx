import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/integrations: Live Session Integrations, a child of the creator-only area (app/router.tsx adds it there). */
export const integrationsRoutes: RouteObject[] = [
  { path: paths.creator.integrations, lazy: () => import('./screens/integrations-screen.tsx').then((m) => ({ Component: m.IntegrationsScreen })) },
];

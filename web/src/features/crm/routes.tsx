import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/crm: the learner CRM, a child of the creator-only area (app/router.tsx adds it there). */
export const crmRoutes: RouteObject[] = [
  { path: paths.creator.crm, lazy: () => import('./screens/crm-screen.tsx').then((m) => ({ Component: m.CrmScreen })) },
];

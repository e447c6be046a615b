import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** The creator's Submissions queue (issue 35 point 2), a child of the creator-only area (app/router.tsx). Lazy. */
export const submissionsRoutes: RouteObject[] = [
  { path: paths.creator.submissions, lazy: () => import('./screens/submissions-screen.tsx').then((m) => ({ Component: m.SubmissionsScreen })) },
];

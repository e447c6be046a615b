import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** /dashboard/creator/sequences: a child of the creator-only area (app/router.tsx adds it there). Lazy. */
export const sequencesRoutes: RouteObject[] = [
  { path: paths.creator.sequences, lazy: () => import('./screens/sequences-screen.tsx').then((m) => ({ Component: m.SequencesScreen })) },
];

import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/**
 * The course builder's pages, children of the creator-only area (app/router.tsx adds them and the guard). Lazy.
 * My Courses, with the payouts feature's banner above it, is composed by app/routes/creator-courses.tsx.
 */
export const courseRoutes: RouteObject[] = [
  { path: paths.creator.create, lazy: () => import('./screens/create-course-screen.tsx').then((m) => ({ Component: m.CreateCourseScreen })) },
  { path: paths.creator.course, lazy: () => import('./screens/course-editor-screen.tsx').then((m) => ({ Component: m.CourseEditorScreen })) },
];

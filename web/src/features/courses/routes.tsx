import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/** The course builder's pages, children of the creator-only area (app/router.tsx adds them and the guard). Lazy. */
export const courseRoutes: RouteObject[] = [
  { path: paths.creator.courses, lazy: () => import('./screens/my-courses-screen.tsx').then((m) => ({ Component: m.MyCoursesScreen })) },
  { path: paths.creator.create, lazy: () => import('./screens/create-course-screen.tsx').then((m) => ({ Component: m.CreateCourseScreen })) },
  { path: paths.creator.course, lazy: () => import('./screens/course-editor-screen.tsx').then((m) => ({ Component: m.CourseEditorScreen })) },
];

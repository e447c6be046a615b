import * as z from 'zod';
import { isoDate } from './common.ts';
import { courseSummary } from './courses.ts';

/** The admin's course list (SPEC.md admin "courses"; docs/api.md): every creator's courses, newest first. */

export const ADMIN_COURSES_PAGE_SIZE = 25;

/** A course with its creator; `creatorEmail` is null only if the creator's profile is gone. */
export const adminCourse = courseSummary.omit({ description: true }).extend({
  creatorId: z.string(),
  creatorEmail: z.string().nullable(),
  updatedAt: isoDate,
});
export type AdminCourse = z.infer<typeof adminCourse>;

/** GET /api/admin/courses: one page; `nextCursor` null on the last. */
export const adminCourseList = z.object({ items: z.array(adminCourse), nextCursor: z.string().nullable() });
export type AdminCourseList = z.infer<typeof adminCourseList>;

export const adminCoursesQuery = z.object({ cursor: z.string().min(1).max(2048).optional() });

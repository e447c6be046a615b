import { ADMIN_COURSES_PAGE_SIZE, type AdminCourseList } from '#contracts/admin-courses.ts';
import type { CourseRepository, UserRepository } from '#core/ports.ts';

/**
 * GET /api/admin/courses: one page of every creator's courses, newest first, each with its creator's email: one Query
 * of the all-courses index and one batch read of the page's creators, whatever the number of courses.
 */
export const listAllCourses = async (
  deps: { courses: Pick<CourseRepository, 'listAll'>; users: Pick<UserRepository, 'getUsers'> },
  cursor: string | undefined,
): Promise<AdminCourseList> => {
  const page = await deps.courses.listAll(cursor, ADMIN_COURSES_PAGE_SIZE);
  const creators = await deps.users.getUsers([...new Set(page.items.map((c) => c.creatorId))]);
  const emailOf = new Map(creators.map((u) => [u.id, u.email]));
  return {
    items: page.items.map(({ id, title, status, creatorId, lessonCount, enrolledCount, priceAmount, seatPriceAmount, createdAt, updatedAt }) => ({
      id,
      title,
      status,
      creatorId,
      creatorEmail: emailOf.get(creatorId) ?? null,
      lessonCount,
      enrolledCount,
      priceAmount,
      seatPriceAmount,
      createdAt,
      updatedAt,
    })),
    nextCursor: page.nextCursor,
  };
};

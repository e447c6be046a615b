import type { CourseSummary, CreatorStats } from '#contracts/courses.ts';
import type { CourseRepository, CrmRepository } from '#core/ports.ts';

/** The dashboard's 'Recent Courses'. */
export const RECENT_COURSES = 5;

/** Percent of enrolments completed, rounded (0 with no students). */
export const completionRate = (counters: { students: number; completions: number }): number =>
  counters.students > 0 ? Math.min(100, Math.max(0, Math.round((100 * counters.completions) / counters.students))) : 0;

/**
 * GET /api/creator/stats: the creator dashboard's cards from the counters item (moved with every course and enrolment
 * change) and the newest courses: two reads, whatever the number of courses or learners. Revenue is 0 until course
 * sales exist (issue 12).
 */
export const creatorStats = async (deps: { crm: CrmRepository; courses: CourseRepository }, creatorId: string): Promise<CreatorStats> => {
  const [counters, recent] = await Promise.all([deps.crm.counters(creatorId), deps.courses.listByCreator(creatorId, { limit: RECENT_COURSES })]);
  return {
    courses: Math.max(0, counters.courses),
    students: Math.max(0, counters.students),
    completionRate: completionRate(counters),
    revenuePence: 0,
    recentCourses: recent.slice(0, RECENT_COURSES).map(
      ({ id, title, description, status, lessonCount, enrolledCount, priceAmount, seatPriceAmount, createdAt }): CourseSummary => ({
        id,
        title,
        description,
        status,
        lessonCount,
        enrolledCount,
        priceAmount,
        seatPriceAmount,
        createdAt,
      }),
    ),
  };
};

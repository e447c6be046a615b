import type { CourseSummary, CreatorStats } from '#contracts/courses.ts';
import type { CrmRepository } from '#core/crm/ports.ts';
import type { Clock, CourseRepository, OrderRepository } from '#core/ports.ts';

/** The dashboard's 'Recent Courses'. */
export const RECENT_COURSES = 5;

/** Percent of enrolments completed, rounded (0 with no students). */
export const completionRate = (counters: { students: number; completions: number }): number =>
  counters.students > 0 ? Math.min(100, Math.max(0, Math.round((100 * counters.completions) / counters.students))) : 0;

/**
 * GET /api/creator/stats: the creator dashboard's cards from the counters item (moved with every course and enrolment
 * change), the newest courses and this month's sales counters (UTC month, net of refunds): three reads, whatever the
 * number of courses, learners or sales.
 */
export const creatorStats = async (
  deps: { crm: CrmRepository; courses: CourseRepository; orders: Pick<OrderRepository, 'monthRevenue'>; clock: Clock },
  creatorId: string,
): Promise<CreatorStats> => {
  const [counters, recent, revenue] = await Promise.all([
    deps.crm.counters(creatorId),
    deps.courses.listByCreator(creatorId, { limit: RECENT_COURSES }),
    deps.orders.monthRevenue(creatorId, deps.clock.now().toISOString().slice(0, 7)),
  ]);
  return {
    courses: Math.max(0, counters.courses),
    students: Math.max(0, counters.students),
    completionRate: completionRate(counters),
    certificates: Math.max(0, counters.certificates),
    revenuePence: Math.max(0, revenue),
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

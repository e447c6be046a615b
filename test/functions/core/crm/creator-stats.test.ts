import { describe, expect, it } from 'vitest';
import { completionRate, creatorStats } from '#core/crm/creator-stats.ts';
import type { CourseRecord, CourseRepository } from '#core/ports.ts';
import { testClock } from '#test/functions/fakes/clock.ts';
import { courseRecord } from '#test/functions/fakes/courses.ts';
import { memoryCrm } from '#test/functions/fakes/crm.ts';

const course = (n: number): CourseRecord =>
  courseRecord({ id: `course-${n}`, creatorId: 'creator-1', title: `Course ${n}`, description: '', lessonCount: 3, enrolledCount: 2, priceAmount: 0, seatPriceAmount: 0 });

/** Only the read the stats make. */
const coursesOf = (courses: CourseRecord[]) =>
  ({ listByCreator: async (_creatorId: string, options?: { limit?: number }) => courses.slice(0, options?.limit ?? courses.length) }) as unknown as CourseRepository;

describe('the completion rate', () => {
  it('is completions over students, as a rounded percent', () => {
    expect(completionRate({ students: 3, completions: 1 })).toBe(33);
    expect(completionRate({ students: 3, completions: 2 })).toBe(67);
    expect(completionRate({ students: 4, completions: 4 })).toBe(100);
  });

  it('is 0 with no students', () => {
    expect(completionRate({ students: 0, completions: 0 })).toBe(0);
  });
});

describe("the creator's dashboard figures", () => {
  it("come from the counters, the five newest courses and this month's sales", async () => {
    const crm = memoryCrm({ counters: { 'creator-1': { courses: 7, students: 12, completions: 3, certificates: 2 } } });
    const asked: string[] = [];
    const orders = { monthRevenue: async (creatorId: string, month: string) => (asked.push(`${creatorId} ${month}`), 8700) };
    const stats = await creatorStats({ crm, courses: coursesOf(Array.from({ length: 7 }, (_, i) => course(i))), orders, clock: testClock('2026-11-25T10:00:00.000Z') }, 'creator-1');
    expect(stats).toMatchObject({ courses: 7, students: 12, completionRate: 25, certificates: 2, revenuePence: 8700 });
    expect(asked).toEqual(['creator-1 2026-11']);
    expect(stats.recentCourses.map((c) => c.id)).toEqual(['course-0', 'course-1', 'course-2', 'course-3', 'course-4']);
    expect(stats.recentCourses[0]).not.toHaveProperty('creatorId');
  });

  it('are all zero for a new creator', async () => {
    const stats = await creatorStats({ crm: memoryCrm(), courses: coursesOf([]), orders: { monthRevenue: async () => 0 }, clock: testClock() }, 'creator-1');
    expect(stats).toEqual({ courses: 0, students: 0, completionRate: 0, certificates: 0, revenuePence: 0, recentCourses: [] });
  });
});

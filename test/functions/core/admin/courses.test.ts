import { describe, expect, it } from 'vitest';
import { ADMIN_COURSES_PAGE_SIZE } from '#contracts/admin-courses.ts';
import { listAllCourses } from '#core/admin/courses.ts';
import { createCourse, updateCourse } from '#core/courses/courses.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryCourses, recordingRenames } from '#test/functions/fakes/courses.ts';
import { memoryUsers } from '#test/functions/fakes/users.ts';

const setup = () => {
  const users = memoryUsers([
    { id: 'ann', email: 'ann@example.com', role: 'creator', createdAt: '2026-11-01T10:00:00.000Z' },
    { id: 'bob', email: 'bob@example.com', role: 'creator', createdAt: '2026-11-02T10:00:00.000Z' },
  ]);
  return { users, courses: memoryCourses(), ids: sequentialIds('course'), jobs: recordingRenames().jobs };
};

describe("the admin's course list", () => {
  it("lists every creator's courses newest first with their creators' emails, a page at a time", async () => {
    const d = setup();
    const total = ADMIN_COURSES_PAGE_SIZE + 2;
    for (let i = 0; i < total; i++) {
      const clock = testClock(`2026-11-${String(1 + i).padStart(2, '0')}T09:00:00.000Z`);
      await createCourse({ ...d, clock }, { creatorId: i % 2 === 0 ? 'ann' : 'bob', body: { title: `Course ${i}` } });
    }
    await updateCourse({ ...d, clock: testClock() }, { creatorId: 'ann', courseId: 'course-1', body: { status: 'published' } });

    const first = await listAllCourses(d, undefined);
    expect(first.items).toHaveLength(ADMIN_COURSES_PAGE_SIZE);
    expect(first.items[0]).toEqual({
      id: `course-${total}`,
      title: `Course ${total - 1}`,
      status: 'draft',
      creatorId: 'ann',
      creatorEmail: 'ann@example.com',
      lessonCount: 0,
      enrolledCount: 0,
      priceAmount: 0,
      seatPriceAmount: 0,
      createdAt: `2026-11-${total}T09:00:00.000Z`,
      updatedAt: `2026-11-${total}T09:00:00.000Z`,
    });
    expect(first.items[1]).toMatchObject({ creatorEmail: 'bob@example.com' });
    const second = await listAllCourses(d, first.nextCursor!);
    expect(second.nextCursor).toBeNull();
    expect(second.items.map((c) => c.title)).toEqual(['Course 1', 'Course 0']);
    expect(second.items[1]).toMatchObject({ status: 'published', creatorEmail: 'ann@example.com' });
  });

  it('answers an empty list, and a course whose creator is gone with no email', async () => {
    const d = setup();
    expect(await listAllCourses(d, undefined)).toEqual({ items: [], nextCursor: null });
    await createCourse({ ...d, clock: testClock() }, { creatorId: 'gone', body: { title: 'Orphan' } });
    expect((await listAllCourses(d, undefined)).items[0]).toMatchObject({ title: 'Orphan', creatorEmail: null });
  });
});

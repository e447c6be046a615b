import { describe, expect, it } from 'vitest';
import { sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import { NotFoundError } from '#core/errors.ts';
import { courseChangeRun } from '#core/courses/changes.ts';
import { createCourse, deleteCourse, getCourse, listCourses, updateCourse } from '#core/courses/courses.ts';
import { createLesson } from '#core/courses/lessons.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryCourses, recordingRenames } from '#test/functions/fakes/courses.ts';
import { memoryFiles, memoryFileStore } from '#test/functions/fakes/files.ts';

const setup = () => {
  const recorded = recordingRenames();
  const files = memoryFiles();
  return { courses: memoryCourses(files.all), files, store: memoryFileStore(), jobs: recorded.jobs, recorded, clock: testClock(), ids: sequentialIds('course'), sanitize: sanitizeLessonHtml };
};
type Deps = ReturnType<typeof setup>;

const create = (d: Deps, title = 'Knife skills', creatorId = 'ann') => createCourse(d, { creatorId, body: { title, description: 'Chop safely.' } });

describe('creating a course', () => {
  it('makes a draft with no lessons, and counts it for the creator', async () => {
    const d = setup();
    const course = await create(d);
    expect(course).toEqual({
      id: 'course-1',
      title: 'Knife skills',
      description: 'Chop safely.',
      status: 'draft',
      lessonCount: 0,
      enrolledCount: 0,
      priceAmount: 0,
      seatPriceAmount: 0,
      createdAt: NOW,
      updatedAt: NOW,
      lessons: [],
    });
    expect(d.courses.counters('ann').courses).toBe(1);
    expect(await getCourse(d, { creatorId: 'ann', courseId: course.id })).toEqual(course);
  });

  it('keeps an omitted description as empty text', async () => {
    const d = setup();
    expect((await createCourse(d, { creatorId: 'ann', body: { title: 'Bread' } })).description).toBe('');
  });
});

describe('listing courses', () => {
  it('shows only the caller\'s courses, newest first, without their lessons', async () => {
    const d = setup();
    await create(d, 'First');
    d.clock.advance(1000);
    await create(d, 'Second');
    await create(d, 'Not mine', 'bob');
    const { items } = await listCourses(d, { creatorId: 'ann' });
    expect(items.map((c) => c.title)).toEqual(['Second', 'First']);
    expect(items[0]).not.toHaveProperty('lessons');
    expect(items[0]).not.toHaveProperty('creatorId');
  });
});

describe('changing a course', () => {
  it('publishes and unpublishes it', async () => {
    const d = setup();
    const { id } = await create(d);
    d.clock.advance(1000);
    const published = await updateCourse(d, { creatorId: 'ann', courseId: id, body: { status: 'published' } });
    expect(published).toMatchObject({ status: 'published', title: 'Knife skills', updatedAt: '2026-11-21T12:00:01.000Z' });
    expect((await updateCourse(d, { creatorId: 'ann', courseId: id, body: { status: 'draft' } })).status).toBe('draft');
    expect(d.recorded.renames).toEqual([]);
  });

  it('answers a new title at once and starts one \'course-changed\' run to copy it, named by the rename\'s time', async () => {
    const d = setup();
    const { id } = await create(d);
    d.clock.advance(1000);
    const renamed = await updateCourse(d, { creatorId: 'ann', courseId: id, body: { title: 'Knife skills 101' } });
    expect(renamed.title).toBe('Knife skills 101');
    expect(d.recorded.renames).toEqual([{ courseId: id, title: 'Knife skills 101' }]);
    expect(d.recorded.started).toEqual([{ change: 'renamed', courseId: id, title: 'Knife skills 101', version: '2026-11-21T12:00:01.000Z' }]);
    expect(courseChangeRun(d.recorded.started[0]!)).toBe(`course-changed@${id}@2026-11-21T12:00:01.000Z`);
    // The same title again (a retried request, a form saved as it was) starts nothing.
    await updateCourse(d, { creatorId: 'ann', courseId: id, body: { title: 'Knife skills 101', description: 'Sharper.' } });
    expect(d.recorded.started).toHaveLength(1);
  });

  it("starts a 'published' run when the course is published (its memberships' members get it at once), and none while it stays published", async () => {
    const d = setup();
    const { id } = await create(d);
    d.clock.advance(1000);
    await updateCourse(d, { creatorId: 'ann', courseId: id, body: { status: 'published', priceAmount: 2900 } });
    expect(d.recorded.started).toEqual([{ change: 'published', courseId: id, creatorId: 'ann', version: '2026-11-21T12:00:01.000Z' }]);
    await updateCourse(d, { creatorId: 'ann', courseId: id, body: { description: 'Sharper.' } });
    expect(d.recorded.started).toHaveLength(1);
  });

  it('keeps its lessons in the answer', async () => {
    const d = setup();
    const { id } = await create(d);
    await createLesson(d, { creatorId: 'ann', courseId: id, body: { title: 'Grip', kind: 'text', body: '<p>Hold it.</p>' } });
    expect((await updateCourse(d, { creatorId: 'ann', courseId: id, body: { description: 'New' } })).lessons.map((l) => l.title)).toEqual(['Grip']);
  });
});

describe('deleting a course', () => {
  it('answers at once: the course item and its course counter go, the rest is left to a \'course-changed\' run it starts', async () => {
    const d = setup();
    const { id } = await create(d);
    await createLesson(d, { creatorId: 'ann', courseId: id, body: { title: 'Grip', kind: 'text', body: '<p>Hold it.</p>' } });
    d.courses.addEnrollment(id, { learnerId: 'l1', active: true, completed: true, creatorId: 'ann' });
    d.courses.addEnrollment(id, { learnerId: 'l2', active: true, completed: false, creatorId: 'ann' });
    d.courses.addEnrollment(id, { learnerId: 'l3', active: false, completed: false, creatorId: 'ann' });
    expect(d.courses.counters('ann')).toEqual({ courses: 1, students: 2, completions: 1, certificates: 0 });

    const deleted = await deleteCourse(d, { creatorId: 'ann', courseId: id });
    expect(deleted.id).toBe(id);
    // The learners' figures move with their enrolments, as the job removes them (test/integration/course-changes.test.ts).
    expect(d.courses.counters('ann')).toEqual({ courses: 0, students: 2, completions: 1, certificates: 0 });
    expect(d.recorded.deletions).toEqual([{ courseId: id, creatorId: 'ann' }]);
    await expect(getCourse(d, { creatorId: 'ann', courseId: id })).rejects.toThrow(NotFoundError);
    expect((await listCourses(d, { creatorId: 'ann' })).items).toEqual([]);
  });
});

describe('another creator\'s course', () => {
  it('is 404 to read, change or delete, exactly like a missing one, and nothing is written', async () => {
    const d = setup();
    const { id } = await create(d);
    const before = await getCourse(d, { creatorId: 'ann', courseId: id });
    const attempts = [
      () => getCourse(d, { creatorId: 'bob', courseId: id }),
      () => updateCourse(d, { creatorId: 'bob', courseId: id, body: { title: 'Mine now', status: 'published' } }),
      () => deleteCourse(d, { creatorId: 'bob', courseId: id }),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Course not found.' });
    await expect(getCourse(d, { creatorId: 'ann', courseId: 'no-such-course' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Course not found.' });
    expect(await getCourse(d, { creatorId: 'ann', courseId: id })).toEqual(before);
    expect(d.courses.calls('update') + d.courses.calls('delete')).toBe(0);
    expect(d.recorded.started).toEqual([]);
    expect(d.courses.counters('ann').courses).toBe(1);
  });

  it('is 404 when it changes hands between the read and the write (the write is conditioned on the owner)', async () => {
    const d = setup();
    const { id } = await create(d);
    d.courses.before('update', async () => {
      await d.courses.delete({ courseId: id, creatorId: 'ann' });
    });
    await expect(updateCourse(d, { creatorId: 'ann', courseId: id, body: { title: 'Late' } })).rejects.toThrow(NotFoundError);
    expect(d.recorded.renames).toEqual([]);
  });
});

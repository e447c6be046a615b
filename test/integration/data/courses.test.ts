import { beforeAll, describe, expect, it } from 'vitest';
import { LESSONS_PER_COURSE_MAX, type LessonRecord } from '#contracts/courses.ts';
import type { CourseRecord } from '#core/ports.ts';
import { backfillCourseIndex, backfillCourseOutlines, courseKeys, creatorStatsUpdate, dynamoCourses, legacyCreatorStatsKey, readCreatorStats, readLesson, readLessons, readOutline, removeDeletedCourseBatch, updateLessonText } from '#data/courses.ts';
import { documentClient, tableName } from '#data/table.ts';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { courseRecord } from '#test/functions/fakes/courses.ts';
import { counted, useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();

const courseOf = (creatorId: string, minute = 0, extra: Partial<CourseRecord> = {}): CourseRecord =>
  courseRecord({ id: unique('course'), creatorId, description: 'Chop things.', status: 'draft', priceAmount: 0, seatPriceAmount: 0, createdAt: at(minute), updatedAt: at(minute), ...extra });

const lessonOf = (courseId: string, position: number, extra: Partial<LessonRecord> = {}): LessonRecord => ({
  id: unique('lesson'),
  courseId,
  title: `Lesson ${position}`,
  kind: 'text',
  body: '<p>Hi</p>',
  videoUrl: null,
  quiz: null,
  position,
  createdAt: at(position),
  updatedAt: at(position),
  ...extra,
});

const stats = (creatorId: string) => readCreatorStats(creatorId, { consistent: true });

describe("a course's outline (the learner's lesson reads)", () => {
  it('is kept by every lesson write, holds no bodies, and is read with the course item in one call; a missing or stale one is read around and backfilled', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('outline');
    const course = courseOf(creatorId);
    await courses.create(course);
    expect((await readOutline(course.id))?.lessons).toEqual([]);
    const lessons = [0, 1, 2].map((i) => lessonOf(course.id, i, { body: `<p>Body ${i} ${'x'.repeat(2000)}</p>` }));
    for (const lesson of lessons) expect(await courses.createLesson({ creatorId, lesson })).toBe('created');
    const stored = await rawItem(courseKeys.outline(course.id));
    expect(stored).toMatchObject({ rev: 3 });
    expect(JSON.stringify(stored)).not.toContain('Body');
    const titles = async () => (await readOutline(course.id))!.lessons.map((l) => [l.title, l.position]);
    expect(await titles()).toEqual([['Lesson 0', 0], ['Lesson 1', 1], ['Lesson 2', 2]]);
    expect((await readOutline(course.id))!.lessons[0]).toEqual({ id: lessons[0]!.id, title: 'Lesson 0', kind: 'text', position: 0, createdAt: at(0), release: { kind: 'immediate' } });

    expect(await courses.reorderLessons({ creatorId, courseId: course.id, order: [lessons[2]!.id, lessons[0]!.id, lessons[1]!.id], updatedAt: at(9) })).toBe('reordered');
    expect(await updateLessonText({ creatorId, lesson: { ...lessons[0]!, title: 'Grip' } })).toBe('updated');
    expect(await courses.deleteLesson({ creatorId, courseId: course.id, lessonId: lessons[1]!.id, updatedAt: at(10) })).toBe('deleted');
    expect(await titles()).toEqual([['Lesson 2', 0], ['Grip', 1]]);
    expect(await rawItem(courseKeys.outline(course.id))).toMatchObject({ rev: 6 });

    // A course from before outlines (or whose writer died before rebuilding): read from the lessons, then backfilled.
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: courseKeys.outline(course.id) }));
    expect(await titles()).toEqual([['Lesson 2', 0], ['Grip', 1]]);
    expect(await backfillCourseOutlines()).toBeGreaterThan(0);
    expect(await rawItem(courseKeys.outline(course.id))).toMatchObject({ rev: 6, lessons: [expect.objectContaining({ title: 'Lesson 2' }), expect.objectContaining({ title: 'Grip' })] });
    // An outline behind the course's rev is not trusted.
    await putRaw({ ...courseKeys.outline(course.id), type: 'CourseOutline', courseId: course.id, rev: 5, lessons: [] });
    expect(await titles()).toEqual([['Lesson 2', 0], ['Grip', 1]]);
    expect(await readOutline(unique('none'))).toBeUndefined();
  });
});

describe("a learner's lessons, read one at a time", () => {
  it('reads one lesson with its own files only, and every lesson in order with its files (no course item, no enrolment)', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('lessons');
    const course = courseOf(creatorId);
    await courses.create(course);
    const [first, second] = [lessonOf(course.id, 0, { body: '<p>First</p>' }), lessonOf(course.id, 1, { kind: 'video', body: null, videoUrl: 'https://vimeo.com/1' })];
    for (const lesson of [second!, first!]) expect(await courses.createLesson({ creatorId, lesson })).toBe('created');
    const file = (lessonId: string, id: string, minute: number) => ({
      ...courseKeys.course(course.id),
      sk: `FILE#${lessonId}#${id}`,
      type: 'CourseFile',
      id,
      courseId: course.id,
      lessonId,
      kind: 'attachment',
      name: `${id}.pdf`,
      contentType: 'application/pdf',
      size: 10,
      status: 'ready',
      createdAt: at(minute),
    });
    await putRaw(file(second!.id, 'f-late', 5));
    await putRaw(file(second!.id, 'f-early', 1));
    await putRaw(file(first!.id, 'f-other', 2));
    await putRaw({ ...courseKeys.course(course.id), sk: 'ENROLL#someone', type: 'Enrollment', courseId: course.id, learnerId: 'someone' });

    const one = await readLesson(course.id, second!.id);
    expect(one).toMatchObject({ id: second!.id, kind: 'video', videoUrl: 'https://vimeo.com/1', position: 1 });
    expect(one!.files.map((f) => f.id)).toEqual(['f-early', 'f-late']);
    expect(await readLesson(course.id, unique('missing'))).toBeUndefined();

    const all = await readLessons(course.id);
    expect(all.map((l) => [l.id, l.position, l.files.map((f) => f.id)])).toEqual([
      [first!.id, 0, ['f-other']],
      [second!.id, 1, ['f-early', 'f-late']],
    ]);
    expect(all[0]!.body).toBe('<p>First</p>');
    expect(await readLessons(unique('none'))).toEqual([]);
  });
});

describe('the courses store (DynamoDB Local)', () => {
  it("lists every creator's courses newest first across pages of the all-courses index, and refuses a forged cursor", async () => {
    const courses = dynamoCourses();
    const older = courseOf(unique('ann'), 40);
    const newer = courseOf(unique('bob'), 41);
    await courses.create(older);
    await courses.create(newer);
    expect(await rawItem(courseKeys.course(newer.id))).toMatchObject({ gsi2pk: 'COURSES', gsi2sk: `${newer.createdAt}#${newer.id}` });

    const seen: CourseRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await courses.listAll(cursor, 7);
      expect(page.items.length).toBeLessThanOrEqual(7);
      seen.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const keys = seen.map((c) => `${c.createdAt}#${c.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(seen.find((c) => c.id === newer.id)).toEqual(newer);
    expect(seen.findIndex((c) => c.id === newer.id)).toBeLessThan(seen.findIndex((c) => c.id === older.id));

    const forged = Buffer.from(JSON.stringify({ pk: 'USER#x', sk: 'PROFILE', gsi2pk: 'COURSES', gsi2sk: 'z' })).toString('base64url');
    await expect(courses.listAll(forged, 7)).rejects.toThrow('The cursor is not valid');
  });

  it('backfills the all-courses index keys of courses written before it, once', async () => {
    const old = courseOf(unique('early'), 42);
    await putRaw({ ...courseKeys.course(old.id), ...courseKeys.byCreator(old.creatorId, old.createdAt, old.id), type: 'Course', ...old });
    expect(await rawItem(courseKeys.course(old.id))).not.toHaveProperty('gsi2pk');
    expect(await backfillCourseIndex()).toBeGreaterThanOrEqual(1);
    expect(await rawItem(courseKeys.course(old.id))).toMatchObject({ gsi2pk: 'COURSES', gsi2sk: `${old.createdAt}#${old.id}`, title: old.title });
    expect(await backfillCourseIndex()).toBe(0);
  });

  it('creates a course with its index keys and counts it; refuses a taken id without counting again', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator');
    const course = courseOf(creatorId);
    await courses.create(course);
    expect(await rawItem(courseKeys.course(course.id))).toMatchObject({
      ...courseKeys.byCreator(creatorId, course.createdAt, course.id),
      type: 'Course',
      title: 'Knife skills',
    });
    // Its learners are counted on its enrolled shards, not on the item the creator's course index projects.
    expect(await rawItem(courseKeys.course(course.id))).not.toHaveProperty('enrolledCount');
    expect(await stats(creatorId)).toMatchObject({ courses: 1 });
    await expect(courses.create(course)).rejects.toThrow(`Course id ${course.id} is already taken.`);
    expect((await stats(creatorId))?.['courses']).toBe(1);
  });

  it('reads a course with its lessons in order, numbered 0..n-1; nothing for an unknown course', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator-get');
    const course = courseOf(creatorId);
    await courses.create(course);
    const third = lessonOf(course.id, 7);
    const first = lessonOf(course.id, 2, { createdAt: at(1) });
    const second = lessonOf(course.id, 2, { createdAt: at(3), kind: 'video', body: null, videoUrl: 'https://youtu.be/dQw4w9WgXcQ' });
    for (const l of [third, second, first]) expect(await courses.createLesson({ creatorId, lesson: l })).toBe('created');
    const found = await courses.getCourse(course.id);
    expect(found).toMatchObject({ id: course.id, creatorId, lessonCount: 3, enrolledCount: 0, updatedAt: at(1) });
    expect(found?.lessons.map((l) => [l.id, l.position])).toEqual([
      [first.id, 0],
      [second.id, 1],
      [third.id, 2],
    ]);
    expect(await courses.getCourse(unique('missing'))).toBeUndefined();
  });

  it("lists a creator's courses newest first, at most the limit, and no one else's", async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator-list');
    const [old, mid, recent] = [courseOf(creatorId, 1), courseOf(creatorId, 2), courseOf(creatorId, 3)];
    for (const c of [mid, recent, old]) await courses.create(c);
    await courses.create(courseOf(unique('creator-other'), 4));
    expect((await courses.listByCreator(creatorId)).map((c) => c.id)).toEqual([recent.id, mid.id, old.id]);
    expect((await courses.listByCreator(creatorId, { limit: 2 })).map((c) => c.id)).toEqual([recent.id, mid.id]);
    expect(await courses.listByCreator(unique('nobody'))).toEqual([]);
    expect((await stats(creatorId))?.['courses']).toBe(3);
  });

  it("updates only the creator's own course, and only the given fields", async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator-upd');
    const course = courseOf(creatorId);
    await courses.create(course);
    const saved = await courses.update({ courseId: course.id, creatorId, changes: { title: 'Sharper', status: 'published', description: undefined, updatedAt: at(9) } });
    expect(saved).toEqual({ ...course, title: 'Sharper', status: 'published', updatedAt: at(9) });
    expect(await courses.update({ courseId: course.id, creatorId: unique('intruder'), changes: { title: 'Mine now', updatedAt: at(10) } })).toBeUndefined();
    expect(await courses.update({ courseId: unique('missing'), creatorId, changes: { title: 'x', updatedAt: at(10) } })).toBeUndefined();
    expect(await rawItem(courseKeys.course(course.id))).toMatchObject({ title: 'Sharper', updatedAt: at(9) });
    await expect(courses.update({ courseId: course.id, creatorId, changes: { updatedAt: undefined as unknown as string } })).rejects.toThrow();
  });

  it('adds lessons while there is room, counting them; refuses a full course and one that is not the creator\'s', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator-lesson');
    const course = courseOf(creatorId);
    await courses.create(course);
    const added = lessonOf(course.id, 0);
    expect(await courses.createLesson({ creatorId, lesson: added })).toBe('created');
    expect(await rawItem(courseKeys.lesson(course.id, added.id))).toMatchObject({ type: 'Lesson', title: 'Lesson 0' });
    expect((await rawItem(courseKeys.course(course.id)))?.['lessonCount']).toBe(1);

    expect(await courses.createLesson({ creatorId: unique('intruder'), lesson: lessonOf(course.id, 1) })).toBe('gone');
    expect(await courses.createLesson({ creatorId, lesson: lessonOf(unique('missing'), 0) })).toBe('gone');
    expect(await courses.createLesson({ creatorId, lesson: added })).toBe('gone');
    expect((await rawItem(courseKeys.course(course.id)))?.['lessonCount']).toBe(1);

    const full = courseOf(creatorId, 5, { lessonCount: LESSONS_PER_COURSE_MAX });
    await putRaw({ ...courseKeys.course(full.id), type: 'Course', ...full });
    const refused = lessonOf(full.id, 0);
    expect(await courses.createLesson({ creatorId, lesson: refused })).toBe('full');
    expect(await rawItem(courseKeys.lesson(full.id, refused.id))).toBeUndefined();
    expect((await rawItem(courseKeys.course(full.id)))?.['lessonCount']).toBe(LESSONS_PER_COURSE_MAX);
  });

  it('updates a lesson but not its position; gone for a missing lesson or another creator', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator-ul');
    const course = courseOf(creatorId);
    await courses.create(course);
    const l = lessonOf(course.id, 0);
    await courses.createLesson({ creatorId, lesson: l });
    const changed = { ...l, title: 'Video now', kind: 'video' as const, body: null, videoUrl: 'https://vimeo.com/123456789', position: 9, updatedAt: at(20) };
    expect(await courses.updateLesson({ creatorId, lesson: changed })).toBe('updated');
    expect(await rawItem(courseKeys.lesson(course.id, l.id))).toMatchObject({ title: 'Video now', kind: 'video', body: null, videoUrl: changed.videoUrl, position: 0, updatedAt: at(20) });
    expect(await courses.updateLesson({ creatorId: unique('intruder'), lesson: { ...changed, title: 'Hijack' } })).toBe('gone');
    expect(await courses.updateLesson({ creatorId, lesson: { ...changed, id: unique('missing') } })).toBe('gone');
    expect((await rawItem(courseKeys.course(course.id)))?.['lessonCount']).toBe(1);
    expect((await rawItem(courseKeys.lesson(course.id, l.id)))?.['title']).toBe('Video now');
  });

  it('deletes a lesson and counts it out; gone when already deleted or not the creator\'s', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator-dl');
    const course = courseOf(creatorId);
    await courses.create(course);
    const [a, b] = [lessonOf(course.id, 0), lessonOf(course.id, 1)];
    for (const l of [a, b]) await courses.createLesson({ creatorId, lesson: l });
    expect(await courses.deleteLesson({ creatorId: unique('intruder'), courseId: course.id, lessonId: a.id, updatedAt: at(30) })).toBe('gone');
    expect(await rawItem(courseKeys.lesson(course.id, a.id))).toBeDefined();
    expect(await courses.deleteLesson({ creatorId, courseId: course.id, lessonId: a.id, updatedAt: at(30) })).toBe('deleted');
    expect(await rawItem(courseKeys.lesson(course.id, a.id))).toBeUndefined();
    expect(await rawItem(courseKeys.course(course.id))).toMatchObject({ lessonCount: 1, updatedAt: at(30) });
    expect(await courses.deleteLesson({ creatorId, courseId: course.id, lessonId: a.id, updatedAt: at(31) })).toBe('gone');
    expect((await rawItem(courseKeys.course(course.id)))?.['lessonCount']).toBe(1);
    expect((await courses.getCourse(course.id))?.lessons.map((l) => [l.id, l.position])).toEqual([[b.id, 0]]);
  });

  it('reorders lessons (more than one transaction of them); gone for a missing lesson or another creator', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator-ro');
    const course = courseOf(creatorId);
    await courses.create(course);
    const lessons = Array.from({ length: 105 }, (_, i) => lessonOf(course.id, i, { createdAt: at(0) }));
    await Promise.all(lessons.map((l) => courses.createLesson({ creatorId, lesson: l })));
    const order = lessons.map((l) => l.id).reverse();
    expect(await courses.reorderLessons({ creatorId, courseId: course.id, order, updatedAt: at(40) })).toBe('reordered');
    const found = await courses.getCourse(course.id);
    expect(found?.lessons.map((l) => l.id)).toEqual(order);
    expect(found?.updatedAt).toBe(at(40));
    expect((await rawItem(courseKeys.lesson(course.id, lessons[0]!.id)))?.['position']).toBe(104);

    expect(await courses.reorderLessons({ creatorId: unique('intruder'), courseId: course.id, order: [lessons[0]!.id], updatedAt: at(41) })).toBe('gone');
    expect(await courses.reorderLessons({ creatorId, courseId: course.id, order: [lessons[0]!.id, unique('missing')], updatedAt: at(42) })).toBe('gone');
    expect((await rawItem(courseKeys.lesson(course.id, lessons[0]!.id)))?.['position']).toBe(104);
    expect((await rawItem(courseKeys.course(course.id)))?.['updatedAt']).toBe(at(40));
  });

  it('deletes a course item with its course counter, then its lessons and enrolments batch by batch with their counters; refuses another creator', async () => {
    const courses = dynamoCourses();
    const creatorId = unique('creator-del');
    const course = courseOf(creatorId);
    const kept = courseOf(creatorId, 1);
    await courses.create(course);
    await courses.create(kept);
    const lessons = Array.from({ length: 30 }, (_, i) => lessonOf(course.id, i));
    await Promise.all(lessons.map((l) => courses.createLesson({ creatorId, lesson: l })));
    const enrol = (learnerId: string, status: string, completedAt?: string) =>
      putRaw({ ...courseKeys.course(course.id), sk: `${courseKeys.enrollmentPrefix}${learnerId}`, type: 'Enrollment', courseId: course.id, learnerId, creatorId, status, ...(completedAt ? { completedAt } : {}) });
    await enrol('active', 'active');
    await enrol('done', 'active', at(5));
    await enrol('left', 'removed', at(6));
    // The learners' figures as a table from before the shards holds them: read with the shards.
    await putRaw({ ...legacyCreatorStatsKey(creatorId), type: 'CreatorStats', students: 5, completions: 2 });
    await courses.create(courseOf(creatorId, 2));
    // The two active enrolments (one completed) counted in from the table's stream (decision 0040).
    const before = await counted(() => stats(creatorId));
    expect(before).toMatchObject({ courses: 3, students: 7, completions: 3 });

    expect(await courses.delete({ courseId: course.id, creatorId: unique('intruder') })).toBe(false);
    expect(await rawItem(courseKeys.course(course.id))).toBeDefined();
    expect(await counted(() => stats(creatorId))).toMatchObject({ courses: 3, students: 7, completions: 3 });

    expect(await removeDeletedCourseBatch(course.id, creatorId)).toBe('present');
    expect(await courses.delete({ courseId: course.id, creatorId })).toBe(true);
    expect(await courses.getCourse(course.id)).toBeUndefined();
    // The course item and its course counter in the request; the learners' figures move as the run removes them.
    expect(await counted(() => stats(creatorId))).toMatchObject({ courses: 2, students: 7, completions: 3 });
    const batches: unknown[] = [];
    for (let batch = await removeDeletedCourseBatch(course.id, creatorId); batch !== 'done'; batch = await removeDeletedCourseBatch(course.id, creatorId)) batches.push(batch);
    expect(batches).toEqual([{ enrollments: 3, other: 31 }]); // 30 lessons and the outline
    expect(await rawItem(courseKeys.lesson(course.id, lessons[29]!.id))).toBeUndefined();
    expect(await rawItem({ ...courseKeys.course(course.id), sk: 'ENROLL#left' })).toBeUndefined();
    expect(await rawItem({ ...courseKeys.course(course.id), sk: 'ENROLL#done' })).toBeUndefined();
    // Counted out once, from the stream: back to the figures from before the shards.
    expect(await counted(() => stats(creatorId))).toMatchObject({ courses: 2, students: 5, completions: 2 });
    expect(await courses.getCourse(kept.id)).toBeDefined();
    expect(await courses.delete({ courseId: course.id, creatorId })).toBe(false);
  });

  it('moves no counters when nothing moves', () => {
    expect(creatorStatsUpdate('c', {})).toEqual([]);
    expect(creatorStatsUpdate('c', { courses: 0, students: undefined })).toEqual([]);
    // Only what moves: the students, not the courses.
    const update = creatorStatsUpdate('c', { courses: 0, students: -2 })[0]?.Update;
    expect(Object.values(update?.ExpressionAttributeNames ?? {})).toEqual(['students', 'type']);
    expect(Object.values(update?.ExpressionAttributeValues ?? {})).toEqual([-2, 'CreatorStats']);
  });
});

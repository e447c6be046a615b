import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '#core/errors.ts';
import type { NewEnrollment } from '#core/ports.ts';
import { dynamoCourses, readCreatorStats } from '#data/courses.ts';
import { backfillLeftEnrollmentsIndex, dynamoEnrollments, enrollmentKeys, enrollmentTitlePage, retitleEnrollment } from '#data/enrollments.ts';
import { courseRecord } from '#test/functions/fakes/courses.ts';
import { counted, useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();

/** A course of its own, created through the course repository (its item must exist for an enrolment). */
const newCourse = async (tag: string, title = 'Knife skills') => {
  const creatorId = unique(`${tag}-creator`);
  const courseId = unique(`${tag}-course`);
  await dynamoCourses().create(
    courseRecord({ id: courseId, creatorId, title, description: 'Chop things.', status: 'draft', priceAmount: 0, seatPriceAmount: 0, createdAt: at(0), updatedAt: at(0) }),
  );
  return { creatorId, courseId };
};

const newEnrollment = (courseId: string, creatorId: string, learnerId: string, extra: Partial<NewEnrollment> = {}): NewEnrollment => ({
  courseId,
  learnerId,
  creatorId,
  learnerEmail: `${learnerId}@example.com`,
  learnerJoinedAt: at(0),
  courseTitle: 'Knife skills',
  enrolledAt: at(1),
  ...extra,
});

const stats = async (creatorId: string) => {
  const item = await readCreatorStats(creatorId, { consistent: true });
  return { students: item['students'] ?? 0, completions: item['completions'] ?? 0 };
};
const enrolledCount = async (courseId: string) => (await dynamoCourses().getCourse(courseId))?.enrolledCount;

describe('the enrolments (DynamoDB Local)', () => {
  it('enrols once with index keys and counters moved; a second enrol is already', async () => {
    const enrollments = dynamoEnrollments();
    const { creatorId, courseId } = await newCourse('enr');
    const learnerId = unique('learner');
    const input = newEnrollment(courseId, creatorId, learnerId);
    const expected = { ...input, status: 'active', completedLessonIds: [], progress: 0, lastActivity: at(1), completedAt: null };
    expect(await enrollments.enroll(input)).toEqual({ status: 'enrolled', enrollment: expected });
    expect(await enrollments.get(courseId, learnerId)).toEqual(expected);
    const stored = await rawItem(enrollmentKeys.enrollment(courseId, learnerId));
    expect(stored).toMatchObject({
      type: 'Enrollment',
      ...enrollmentKeys.byCreator(creatorId, at(1), courseId, learnerId),
      ...enrollmentKeys.byLearner(learnerId, courseId),
    });
    expect(await counted(() => stats(creatorId))).toEqual({ students: 1, completions: 0 });
    expect(await counted(() => enrolledCount(courseId))).toBe(1);

    expect(await enrollments.enroll({ ...input, enrolledAt: at(9) })).toEqual({ status: 'already' });
    expect(await counted(() => stats(creatorId))).toEqual({ students: 1, completions: 0 });
    expect(await counted(() => enrolledCount(courseId))).toBe(1);
    expect(await enrollments.get(courseId, unique('nobody'))).toBeUndefined();
  });

  it('refuses to enrol in a course that does not exist, writing nothing', async () => {
    const enrollments = dynamoEnrollments();
    const creatorId = unique('gone-creator');
    const courseId = unique('gone-course');
    const learnerId = unique('learner');
    expect(await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId))).toEqual({ status: 'gone' });
    expect(await enrollments.get(courseId, learnerId)).toBeUndefined();
    expect(await counted(() => stats(creatorId))).toEqual({ students: 0, completions: 0 });
  });

  it('completes lessons: progress, idempotency through seenCount, the activity day, completion counted once', async () => {
    const enrollments = dynamoEnrollments();
    const { creatorId, courseId } = await newCourse('complete');
    const learnerId = unique('learner');
    await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId));
    const base = { courseId, learnerId, creatorId };

    expect(await enrollments.completeLesson({ ...base, lessonId: 'l1', seenCount: 0, progress: 50, at: at(10), day: '2026-11-01' })).toBe('completed');
    expect(await enrollments.get(courseId, learnerId)).toMatchObject({ completedLessonIds: ['l1'], progress: 50, lastActivity: at(10), completedAt: null });
    expect(await rawItem(enrollmentKeys.activity(learnerId, '2026-11-01'))).toMatchObject({ type: 'ActivityDay', learnerId, day: '2026-11-01', lastAt: at(10) });
    expect(await counted(() => stats(creatorId))).toEqual({ students: 1, completions: 0 });

    // A stale writer (it saw no lesson completed) changes nothing.
    expect(await enrollments.completeLesson({ ...base, lessonId: 'l1', seenCount: 0, progress: 50, at: at(11), day: '2026-11-01' })).toBe('changed');
    expect(await enrollments.get(courseId, learnerId)).toMatchObject({ completedLessonIds: ['l1'], progress: 50, lastActivity: at(10) });

    expect(
      await enrollments.completeLesson({ ...base, lessonId: 'l2', seenCount: 1, progress: 100, at: at(12), day: '2026-11-02', completedAt: at(12) }),
    ).toBe('completed');
    expect(await enrollments.get(courseId, learnerId)).toMatchObject({ completedLessonIds: ['l1', 'l2'], progress: 100, lastActivity: at(12), completedAt: at(12) });
    expect(await counted(() => stats(creatorId))).toEqual({ students: 1, completions: 1 });
    expect(await enrollments.activityDays(learnerId, '2026-10-01')).toEqual(['2026-11-01', '2026-11-02']);
    expect(await enrollments.activityDays(learnerId, '2026-11-02')).toEqual(['2026-11-02']);
    expect(await enrollments.activityDays(learnerId, '2026-12-01')).toEqual([]);
    expect(await enrollments.activityDays(unique('nobody'), '2000-01-01')).toEqual([]);
  });

  it("removes: out of both listings and into the learner's past courses, progress kept, counters back; re-enrolling restores it with its progress", async () => {
    const enrollments = dynamoEnrollments();
    const { creatorId, courseId } = await newCourse('remove');
    const learnerId = unique('learner');
    await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId));
    await enrollments.completeLesson({ courseId, learnerId, creatorId, lessonId: 'l1', seenCount: 0, progress: 100, at: at(5), day: '2026-11-01', completedAt: at(5) });
    expect(await counted(() => stats(creatorId))).toEqual({ students: 1, completions: 1 });
    expect((await enrollments.listByLearner(learnerId)).map((e) => e.courseId)).toEqual([courseId]);

    expect(await enrollments.remove(courseId, learnerId)).toBe('removed');
    expect(await enrollments.get(courseId, learnerId)).toMatchObject({ status: 'removed', completedLessonIds: ['l1'], progress: 100, completedAt: at(5) });
    const stored = await rawItem(enrollmentKeys.enrollment(courseId, learnerId));
    for (const key of ['gsi1pk', 'gsi1sk']) expect(stored).not.toHaveProperty(key);
    // Still found from the learner (the account deletion and the data export), among the courses they left.
    expect(stored).toMatchObject(enrollmentKeys.left(learnerId, courseId));
    expect(await enrollments.listByLearner(learnerId)).toEqual([]);
    expect(await counted(() => stats(creatorId))).toEqual({ students: 0, completions: 0 });
    expect(await counted(() => enrolledCount(courseId))).toBe(0);
    expect(await enrollments.remove(courseId, learnerId)).toBe('missing');
    expect(await enrollments.remove(courseId, unique('nobody'))).toBe('missing');
    // A removed enrolment takes no lesson.
    expect(await enrollments.completeLesson({ courseId, learnerId, creatorId, lessonId: 'l2', seenCount: 1, progress: 100, at: at(6), day: '2026-11-02' })).toBe('changed');

    const again = await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId, { enrolledAt: at(30), learnerEmail: 'new@example.com', courseTitle: 'Sharp knives' }));
    expect(again).toEqual({
      status: 'restored',
      enrollment: expect.objectContaining({ status: 'active', enrolledAt: at(1), learnerEmail: 'new@example.com', courseTitle: 'Sharp knives', completedLessonIds: ['l1'], progress: 100, completedAt: at(5) }),
    });
    expect(await enrollments.get(courseId, learnerId)).toMatchObject({ status: 'active', enrolledAt: at(1), learnerEmail: 'new@example.com', courseTitle: 'Sharp knives', progress: 100 });
    expect(await rawItem(enrollmentKeys.enrollment(courseId, learnerId))).toMatchObject({
      ...enrollmentKeys.byCreator(creatorId, at(1), courseId, learnerId),
      ...enrollmentKeys.byLearner(learnerId, courseId),
    });
    expect((await enrollments.listByLearner(learnerId)).map((e) => e.courseId)).toEqual([courseId]);
    expect(await counted(() => stats(creatorId))).toEqual({ students: 1, completions: 1 });
    expect(await counted(() => enrolledCount(courseId))).toBe(1);
  });

  it("gives an enrolment removed before the past courses' index its place there, and only such a one; a second run finds none", async () => {
    const { creatorId, courseId } = await newCourse('backfill-left');
    const removed = unique('learner');
    const active = unique('learner');
    // As a removal wrote it before: no index keys at all. And an active one, as enrolled.
    await putRaw({ ...enrollmentKeys.enrollment(courseId, removed), type: 'Enrollment', courseId, creatorId, learnerId: removed, status: 'removed', enrolledAt: at(1) });
    await dynamoEnrollments().enroll(newEnrollment(courseId, creatorId, active));
    expect(await backfillLeftEnrollmentsIndex()).toBeGreaterThanOrEqual(1);
    expect(await rawItem(enrollmentKeys.enrollment(courseId, removed))).toMatchObject({ status: 'removed', ...enrollmentKeys.left(removed, courseId) });
    expect(await rawItem(enrollmentKeys.enrollment(courseId, active))).toMatchObject({ status: 'active', ...enrollmentKeys.byLearner(active, courseId) });
    expect(await backfillLeftEnrollmentsIndex()).toBe(0);
  });

  it('restores a removed enrolment without progress counting no completion', async () => {
    const enrollments = dynamoEnrollments();
    const { creatorId, courseId } = await newCourse('restore-plain');
    const learnerId = unique('learner');
    await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId));
    await enrollments.remove(courseId, learnerId);
    expect((await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId))).status).toBe('restored');
    expect(await counted(() => stats(creatorId))).toEqual({ students: 1, completions: 0 });
  });

  it("keeps the licence a seat gave the access through, and drops it when the learner comes back on their own", async () => {
    const enrollments = dynamoEnrollments();
    const { creatorId, courseId } = await newCourse('licensed');
    const learnerId = unique('learner');
    await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId, { licenseId: 'lic_1' }));
    expect((await enrollments.get(courseId, learnerId))?.licenseId).toBe('lic_1');
    await enrollments.remove(courseId, learnerId);
    expect(await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId, { licenseId: 'lic_2' }))).toMatchObject({ status: 'restored', enrollment: { licenseId: 'lic_2' } });
    expect((await enrollments.get(courseId, learnerId))?.licenseId).toBe('lic_2');
    await enrollments.remove(courseId, learnerId);
    await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId));
    expect((await enrollments.get(courseId, learnerId))?.licenseId).toBeUndefined();
  });

  it('refuses to restore an enrolment whose course is gone', async () => {
    const enrollments = dynamoEnrollments();
    const creatorId = unique('restore-gone-creator');
    const courseId = unique('restore-gone-course');
    const learnerId = unique('learner');
    await putRaw({
      ...enrollmentKeys.enrollment(courseId, learnerId),
      type: 'Enrollment',
      ...newEnrollment(courseId, creatorId, learnerId),
      status: 'removed',
      completedLessonIds: [],
      progress: 0,
      lastActivity: at(1),
      completedAt: null,
    });
    expect(await enrollments.enroll(newEnrollment(courseId, creatorId, learnerId))).toEqual({ status: 'gone' });
    expect(await enrollments.get(courseId, learnerId)).toMatchObject({ status: 'removed' });
    expect(await counted(() => stats(creatorId))).toEqual({ students: 0, completions: 0 });
  });

  it("lists a learner's active enrolments across creators, and a course's enrolments active and removed", async () => {
    const enrollments = dynamoEnrollments();
    const first = await newCourse('list-a');
    const second = await newCourse('list-b');
    const [ann, bob] = [unique('ann'), unique('bob')];
    await enrollments.enroll(newEnrollment(first.courseId, first.creatorId, ann));
    await enrollments.enroll(newEnrollment(second.courseId, second.creatorId, ann));
    await enrollments.enroll(newEnrollment(first.courseId, first.creatorId, bob));
    await enrollments.remove(first.courseId, bob);

    expect((await enrollments.listByLearner(ann)).map((e) => e.courseId).sort()).toEqual([first.courseId, second.courseId].sort());
    expect(await enrollments.listByLearner(bob)).toEqual([]);
    const page = await enrollments.listByCourse(first.courseId);
    expect(page.cursor).toBeNull();
    expect(page.items.map((e) => [e.learnerId, e.status]).sort()).toEqual(
      [
        [ann, 'active'],
        [bob, 'removed'],
      ].sort(),
    );
    expect(await enrollments.listByCourse(unique('empty'))).toEqual({ items: [], cursor: null });
  });

  it("pages a course's enrolments with a cursor that joins the pages, and refuses a foreign cursor", async () => {
    const enrollments = dynamoEnrollments();
    const { creatorId, courseId } = await newCourse('page');
    const learners = Array.from({ length: 105 }, (_, i) => `learner-${String(i).padStart(3, '0')}`);
    await Promise.all(
      learners.map((learnerId) =>
        putRaw({
          ...enrollmentKeys.enrollment(courseId, learnerId),
          type: 'Enrollment',
          ...newEnrollment(courseId, creatorId, learnerId),
          status: 'active',
          completedLessonIds: [],
          progress: 0,
          lastActivity: at(1),
          completedAt: null,
        }),
      ),
    );
    const first = await enrollments.listByCourse(courseId);
    expect(first.items).toHaveLength(100);
    expect(first.cursor).toEqual(expect.any(String));
    const second = await enrollments.listByCourse(courseId, first.cursor!);
    expect(second.cursor).toBeNull();
    expect([...first.items, ...second.items].map((e) => e.learnerId)).toEqual(learners);

    const foreign = Buffer.from(JSON.stringify({ pk: 'COURSE#other', sk: 'ENROLL#x' })).toString('base64url');
    await expect(enrollments.listByCourse(courseId, foreign)).rejects.toThrow(ValidationError);
    await expect(enrollments.listByCourse(courseId, 'not json')).rejects.toThrow(ValidationError);
    const extraKey = Buffer.from(JSON.stringify({ pk: `COURSE#${courseId}`, sk: 'ENROLL#x', gsi1pk: 'y' })).toString('base64url');
    await expect(enrollments.listByCourse(courseId, extraKey)).rejects.toThrow(ValidationError);
  });

  it("retitles each of the course's enrolments, removed ones too, and no other course's, only over an older copy", async () => {
    const enrollments = dynamoEnrollments();
    const { creatorId, courseId } = await newCourse('rename');
    const other = await newCourse('rename-other');
    const [ann, bob] = [unique('ann'), unique('bob')];
    await enrollments.enroll(newEnrollment(courseId, creatorId, ann));
    await enrollments.enroll(newEnrollment(courseId, creatorId, bob));
    await enrollments.remove(courseId, bob);
    await enrollments.enroll(newEnrollment(other.courseId, other.creatorId, ann));

    const page = await enrollmentTitlePage(courseId, undefined);
    expect(page.items.map((i) => i.id).sort()).toEqual([ann, bob].sort());
    // Stamped when enrolled: a rename of before that moment does not overwrite it.
    expect(page.items.every((i) => i.courseTitleAt === at(1))).toBe(true);
    expect(await retitleEnrollment(courseId, ann, 'Older', at(0))).toBe(false);

    for (const learnerId of [ann, bob]) expect(await retitleEnrollment(courseId, learnerId, 'Sharp knives', at(5))).toBe(true);
    expect((await enrollments.get(courseId, ann))?.courseTitle).toBe('Sharp knives');
    expect((await enrollments.get(courseId, bob))?.courseTitle).toBe('Sharp knives');
    expect((await enrollments.get(other.courseId, ann))?.courseTitle).toBe('Knife skills');
    // The same rename again, or an older one late: nothing written.
    expect(await retitleEnrollment(courseId, ann, 'Sharp knives', at(5))).toBe(false);
    expect(await retitleEnrollment(courseId, ann, 'Middle', at(3))).toBe(false);
    expect((await enrollments.get(courseId, ann))?.courseTitle).toBe('Sharp knives');
    expect(await retitleEnrollment(courseId, unique('nobody'), 'x', at(9))).toBe(false);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '#core/errors.ts';
import { crmKeys, dynamoCrm } from '#data/crm.ts';
import { submissionKeys } from '#data/submissions.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();

/** An enrolment item as data/enrollments.ts writes it (index keys only while active), or a partial legacy one. */
const enrolmentItem = (input: { courseId: string; learnerId: string; creatorId: string; enrolledAt: string; status?: 'active' | 'removed'; extra?: Record<string, unknown> }) => ({
  pk: `COURSE#${input.courseId}`,
  sk: `ENROLL#${input.learnerId}`,
  type: 'Enrollment',
  courseId: input.courseId,
  learnerId: input.learnerId,
  creatorId: input.creatorId,
  enrolledAt: input.enrolledAt,
  status: input.status ?? 'active',
  ...(input.status === 'removed'
    ? {}
    : {
        gsi1pk: `CREATOR#${input.creatorId}#LEARNERS`,
        gsi1sk: `${input.enrolledAt}#${input.courseId}#${input.learnerId}`,
        gsi2pk: `LEARNER#${input.learnerId}#COURSES`,
        gsi2sk: input.courseId,
      }),
  ...input.extra,
});

describe('the CRM store (DynamoDB Local)', () => {
  it("pages a creator's active enrolments newest first, partial items as they are, and the cursor joins the pages", async () => {
    const crm = dynamoCrm();
    const creatorId = unique('crm-creator');
    const courseId = unique('crm-course');
    await putRaw(enrolmentItem({ courseId, learnerId: 'old', creatorId, enrolledAt: at(1) }));
    await putRaw(enrolmentItem({ courseId, learnerId: 'gone', creatorId, enrolledAt: at(2), status: 'removed' }));
    await putRaw(
      enrolmentItem({
        courseId,
        learnerId: 'full',
        creatorId,
        enrolledAt: at(3),
        extra: { learnerEmail: 'ann@example.com', learnerJoinedAt: at(0), courseTitle: 'Knife skills', progress: 50, lastActivity: at(4), completedAt: null },
      }),
    );
    await putRaw(enrolmentItem({ courseId: unique('other'), learnerId: 'theirs', creatorId: unique('crm-other'), enrolledAt: at(5) }));
    // The title where it lives (renamed since the copy was made); a deleted course's enrolment is not listed.
    await putRaw({ ...crmKeys.course(courseId), type: 'Course', id: courseId, creatorId, title: 'Sharp knives' });
    await putRaw(enrolmentItem({ courseId: unique('deleted'), learnerId: 'orphan', creatorId, enrolledAt: at(6), extra: { courseTitle: 'Deleted' } }));

    const first = await crm.learnersPage({ creatorId, limit: 2 });
    expect(first.items).toEqual([
      { courseId, learnerId: 'full', enrolledAt: at(3), learnerEmail: 'ann@example.com', learnerJoinedAt: at(0), courseTitle: 'Sharp knives', progress: 50, lastActivity: at(4), completedAt: null },
    ]);
    const second = await crm.learnersPage({ creatorId, limit: 2, cursor: first.cursor! });
    expect(second.items).toEqual([{ courseId, learnerId: 'old', enrolledAt: at(1), courseTitle: 'Sharp knives', completedAt: null }]);
    const byCourse = await crm.learnersPage({ creatorId, courseId, limit: 10 });
    expect(byCourse.items.map((e) => e.learnerId).sort()).toEqual(['full', 'old']);
  });

  it("refuses a cursor that is not this listing's", async () => {
    const crm = dynamoCrm();
    const creatorId = unique('crm-cursor');
    const foreign = Buffer.from(JSON.stringify({ pk: 'COURSE#x', sk: 'ENROLL#y', gsi1pk: 'CREATOR#someone-else#LEARNERS', gsi1sk: 'z' })).toString('base64url');
    await expect(crm.learnersPage({ creatorId, limit: 5, cursor: foreign })).rejects.toThrow(ValidationError);
    await expect(crm.learnersPage({ creatorId, limit: 5, cursor: 'not json' })).rejects.toThrow(ValidationError);
    await expect(crm.learnersPage({ creatorId, limit: 5, cursor: Buffer.from('[1]').toString('base64url') })).rejects.toThrow(ValidationError);
    await expect(crm.learnersPage({ creatorId, courseId: 'c', limit: 5, cursor: foreign })).rejects.toThrow(ValidationError);
  });

  it("finds one learner's active enrolments with this creator only", async () => {
    const crm = dynamoCrm();
    const creatorId = unique('crm-one');
    const learnerId = unique('learner');
    const [a, b, c, d] = [unique('a'), unique('b'), unique('c'), unique('d')];
    for (const courseId of [a, b, c]) await putRaw({ ...crmKeys.course(courseId), type: 'Course', id: courseId, title: courseId === a ? 'A' : 'other' });
    await putRaw(enrolmentItem({ courseId: a, learnerId, creatorId, enrolledAt: at(1), extra: { courseTitle: 'A (old copy)' } }));
    await putRaw(enrolmentItem({ courseId: b, learnerId, creatorId: unique('someone'), enrolledAt: at(2) }));
    await putRaw(enrolmentItem({ courseId: c, learnerId, creatorId, enrolledAt: at(3), status: 'removed' }));
    // Its course deleted, its enrolment not yet removed by the run: not shown.
    await putRaw(enrolmentItem({ courseId: d, learnerId, creatorId, enrolledAt: at(4), extra: { courseTitle: 'D' } }));
    expect((await crm.learnerEnrollments(creatorId, learnerId)).map((e) => e.courseTitle)).toEqual(['A']);
    expect(await crm.learnerEnrollments(unique('stranger'), learnerId)).toEqual([]);
  });

  it("tells a course's owner, and nobody for a missing course", async () => {
    const crm = dynamoCrm();
    const courseId = unique('owned');
    await putRaw({ pk: `COURSE#${courseId}`, sk: 'COURSE', type: 'Course', creatorId: 'me' });
    expect(await crm.courseCreator(courseId)).toBe('me');
    expect(await crm.courseCreator(unique('missing'))).toBeUndefined();
  });

  it('saves a note per creator and learner, reads one or a batch', async () => {
    const crm = dynamoCrm();
    const creatorId = unique('crm-notes');
    await crm.saveNote(creatorId, 'l1', { notes: 'first', updatedAt: at(1) });
    await crm.saveNote(creatorId, 'l1', { notes: 'second', updatedAt: at(2) });
    await crm.saveNote(creatorId, 'l2', { notes: 'other', updatedAt: at(3) });
    expect(await crm.getNote(creatorId, 'l1')).toEqual({ notes: 'second', updatedAt: at(2) });
    expect(await crm.getNote(unique('stranger'), 'l1')).toBeUndefined();
    const notes = await crm.getNotes(creatorId, ['l1', 'l2', 'l3', 'l1']);
    expect(Object.fromEntries([...notes].map(([id, note]) => [id, note.notes]))).toEqual({ l1: 'second', l2: 'other' });
    expect(await rawItem(crmKeys.note(creatorId, 'l1'))).toMatchObject({ type: 'LearnerNote', creatorId, learnerId: 'l1' });
  });

  it("keeps a learner's timeline newest first, apart from other learners'", async () => {
    const crm = dynamoCrm();
    const creatorId = unique('crm-timeline');
    await crm.addTimelineEntry(creatorId, 'l1', { id: 'a', kind: 'recommendation', text: 'one', sentAt: at(1) });
    await crm.addTimelineEntry(creatorId, 'l1', { id: 'b', kind: 'recommendation', text: 'two', sentAt: at(2) });
    await crm.addTimelineEntry(creatorId, 'l10', { id: 'c', kind: 'recommendation', text: 'not l1', sentAt: at(3) });
    expect((await crm.timeline(creatorId, 'l1', 10)).map((e) => e.text)).toEqual(['two', 'one']);
    expect((await crm.timeline(creatorId, 'l1', 1)).map((e) => e.text)).toEqual(['two']);
  });

  it("reads the creator's counters, zeros before any", async () => {
    const crm = dynamoCrm();
    const creatorId = unique('crm-counters');
    expect(await crm.counters(creatorId)).toEqual({ courses: 0, students: 0, completions: 0, certificates: 0 });
    await putRaw({ ...crmKeys.counters(creatorId).key(5), type: 'CreatorStats', courses: 2, students: 5, certificates: 1 });
    expect(await crm.counters(creatorId)).toEqual({ courses: 2, students: 5, completions: 0, certificates: 1 });
  });

  it('reads the enrolments’ pending submissions by key, none where no counter is kept', async () => {
    const crm = dynamoCrm();
    const courseId = unique('crm-pending');
    await putRaw({ ...submissionKeys.pending(courseId, 'ann'), type: 'PendingSubmissions', courseId, learnerId: 'ann', pending: 3 });
    expect(await crm.pendingSubmissions([{ courseId, learnerId: 'ann' }, { courseId, learnerId: 'bob' }])).toEqual(new Map([[`${courseId}#ann`, 3]]));
  });
});

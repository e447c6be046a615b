import { describe, expect, it } from 'vitest';
import { COURSE_SUBMISSIONS_PAGE, removeCourseSubmissions, type CourseSubmissionRemovalDeps } from '#core/assignments/course-deleted.ts';
import type { StoredSubmission, StoredSubmissionFile } from '#core/assignments/ports.ts';
import { submissionFileKey } from '#core/assignments/rules.ts';

/**
 * A deleted course's submissions (issue 35): every submission, its learner's uploads and records and the bytes go, a
 * page at a time, and a run killed at any step finds what is left and finishes without error.
 */
const submission = (i: number, learnerId: string, fileIds: string[]): StoredSubmission => ({
  id: `s${i}`,
  courseId: 'c1',
  lessonId: 'a1',
  lessonTitle: 'Essay',
  creatorId: 'u1',
  learnerId,
  learnerEmail: `${learnerId}@example.com`,
  text: '',
  fileIds,
  files: fileIds.map((id) => ({ id, name: `${id}.pdf`, contentType: 'application/pdf', size: 1 })),
  status: 'submitted',
  submittedAt: `2026-11-01T12:${String(i % 60).padStart(2, '0')}:00.000Z`,
  feedback: null,
  gradedAt: null,
  supersededBy: null,
});

const world = (learners: number) => {
  const submissions = new Map<string, StoredSubmission>();
  const records = new Map<string, { uploads: StoredSubmissionFile[]; other: number }>();
  const objects = new Set<string>();
  for (let i = 0; i < learners; i++) {
    const learnerId = `l${i}`;
    const file = (id: string): StoredSubmissionFile => ({ id, name: `${id}.pdf`, contentType: 'application/pdf', size: 1, courseId: 'c1', lessonId: 'a1', learnerId, createdAt: '2026-11-01T12:00:00.000Z' });
    // Each learner: a superseded submission, the latest, and an upload never handed in.
    const uploads = [file(`f${i}a`), file(`f${i}b`), file(`f${i}spare`)];
    submissions.set(`s${i}a`, { ...submission(i, learnerId, [`f${i}a`]), id: `s${i}a`, supersededBy: `s${i}b` });
    submissions.set(`s${i}b`, { ...submission(i, learnerId, [`f${i}b`]), id: `s${i}b` });
    records.set(learnerId, { uploads, other: 2 });
    for (const u of uploads) objects.add(submissionFileKey(u));
  }
  let calls = 0;
  let killAt = 0;
  const step = () => {
    if (++calls === killAt) throw new Error('killed');
  };
  const deps: CourseSubmissionRemovalDeps = {
    submissions: {
      page: async (_courseId, limit) => (step(), [...submissions.values()].sort((a, b) => a.submittedAt.localeCompare(b.submittedAt)).slice(0, limit)),
      learnerUploads: async (_courseId, learnerId) => (step(), records.get(learnerId)?.uploads ?? []),
      removeLearnerRecords: async (_courseId, learnerId) => void (step(), records.delete(learnerId)),
      remove: async (id) => void (step(), submissions.delete(id)),
    },
    files: { deleteObjects: async (keys) => void (step(), keys.forEach((k) => objects.delete(k))) },
  };
  return { deps, submissions, records, objects, killAt: (n: number) => ((calls = 0), (killAt = n)) };
};

describe('a deleted course’s submissions', () => {
  it('removes every submission (superseded ones too), every upload of their learners and every object, over several slices', async () => {
    const w = world(30);
    const counts = { submissions: 0, submissionFiles: 0 };
    let slices = 0;
    let more = true;
    // One page a slice: the time is up as soon as a page is done.
    while (more) {
      more = await removeCourseSubmissions(w.deps, 'c1', () => true, counts);
      slices++;
    }
    expect(slices).toBe(Math.ceil(60 / COURSE_SUBMISSIONS_PAGE) + 1);
    expect([w.submissions.size, w.records.size, w.objects.size]).toEqual([0, 0, 0]);
    expect(counts.submissions).toBe(60);
  });

  it('a run killed at any step finishes on its next delivery, nothing left behind', async () => {
    for (let kill = 1; kill <= 12; kill++) {
      const w = world(3);
      w.killAt(kill);
      const counts = { submissions: 0, submissionFiles: 0 };
      await expect(removeCourseSubmissions(w.deps, 'c1', () => false, counts)).rejects.toThrow('killed');
      expect(await removeCourseSubmissions(w.deps, 'c1', () => false, counts)).toBe(false);
      expect([w.submissions.size, w.records.size, w.objects.size]).toEqual([0, 0, 0]);
    }
  });
});

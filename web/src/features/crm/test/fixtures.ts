import type { CrmLearner, CrmLearnerDetails } from '@contracts/courses.ts';

/** A CRM row as the server sends it, with the spec's defaults already applied. */
export const crmRow = (over: Partial<CrmLearner> = {}): CrmLearner => ({
  id: 'learner-ada',
  email: 'ada@example.com',
  createdAt: '2026-10-01T09:00:00.000Z',
  courseId: 'course-paint',
  courseName: 'Watercolour for Beginners',
  progress: 50,
  lastActivity: '2026-11-20T10:00:00.000Z',
  notes: '',
  stalled: false,
  pendingSubmissions: 0,
  ...over,
});

export const detailsOf = (row: CrmLearner, over: Partial<CrmLearnerDetails> = {}): CrmLearnerDetails => ({
  id: row.id,
  email: row.email,
  createdAt: row.createdAt,
  enrollments: [
    {
      courseId: row.courseId,
      courseName: row.courseName,
      progress: row.progress,
      lastActivity: row.lastActivity,
      stalled: row.stalled,
      pendingSubmissions: row.pendingSubmissions,
      enrolledAt: '2026-10-02T09:00:00.000Z',
      completedAt: null,
      quizzes: [],
    },
  ],
  notes: row.notes,
  notesUpdatedAt: null,
  timeline: [],
  ...over,
});

import type { LeaderSettings, License, Member, ReportRow } from '@contracts/licenses.ts';

/** A licence 'lic-1' of 10 seats (3 in use) on `courseTitle`, granted, without an end date, unless `changes` say otherwise. */
export const license = (id: string, courseTitle: string, changes: Partial<License> = {}): License => ({
  id,
  courseId: `course-of-${id}`,
  courseTitle,
  leaderEmail: 'leader@example.com',
  seatsTotal: 10,
  seatsUsed: 3,
  expiresAt: null,
  status: 'active',
  source: 'granted',
  createdAt: '2026-11-20T10:00:00.000Z',
  ...changes,
});

/** An active member at 0% with no activity yet, unless `changes` say otherwise. */
export const member = (email: string, changes: Partial<Member> = {}): Member => ({
  email,
  status: 'active',
  learnerId: `learner-${email.split('@')[0]!}`,
  assignedAt: '2026-11-21T10:00:00.000Z',
  progress: 0,
  lastActivity: null,
  completedAt: null,
  ...changes,
});

/** A report row: an active member of 'lic-1' (Watercolour for Beginners) at 0% with no activity yet, unless `changes` say otherwise. */
export const reportRow = (email: string, changes: Partial<ReportRow> = {}): ReportRow => ({
  email,
  licenseId: 'lic-1',
  courseId: 'course-of-lic-1',
  courseTitle: 'Watercolour for Beginners',
  status: 'active',
  progress: 0,
  lastActivity: null,
  completedAt: null,
  certificate: null,
  ...changes,
});

/** A leader's settings: named, with the weekly email on, unless `changes` say otherwise. */
export const leaderSettings = (changes: Partial<LeaderSettings> = {}): LeaderSettings => ({
  email: 'leader@example.com',
  name: 'Lee Leader',
  organization: 'Acme Learning',
  weeklyReport: true,
  updatedAt: '2026-11-22T10:00:00.000Z',
  ...changes,
});

import type { LearnerCertificate, LearnerProfile } from '@contracts/certificates.ts';

/** One of the learner's certificates as GET /api/learner/certificates lists it (issued at midday: the same day in every zone). */
export const certificate = (id: string, courseTitle: string, changes: Partial<LearnerCertificate> = {}): LearnerCertificate => ({
  id,
  courseId: `course-of-${id}`,
  courseTitle,
  creatorName: 'Maya Green',
  learnerName: null,
  issuedAt: '2026-11-20T12:00:00.000Z',
  status: 'valid',
  verifyUrl: `https://app.test/verify/${id}`,
  linkedInUrl: `https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME&name=${encodeURIComponent(courseTitle)}&certId=${id}`,
  ...changes,
});

/** The learner's profile as GET /api/learner/profile answers it: no name on certificates yet, nothing being re-issued. */
export const learnerProfile = (changes: Partial<LearnerProfile> = {}): LearnerProfile => ({
  email: 'ada@example.com',
  certificateName: '',
  certificatesUpdating: false,
  updatedAt: null,
  ...changes,
});

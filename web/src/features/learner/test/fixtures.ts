import type { LearnerCourseDetail, LearnerCourseOutline } from '@contracts/courses.ts';
import { jsonResponse } from '@/test/render.tsx';
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

/** The outline GET /api/learner/courses/{id}/outline answers for this course: its lessons without bodies. */
export const outlineOf = ({ lessons, ...course }: LearnerCourseDetail): LearnerCourseOutline => ({
  ...course,
  lessons: lessons.map(({ id, title, kind, position, completed, locked, availableAt }) => ({ id, title, kind, position, completed, ...(locked !== undefined ? { locked, availableAt: availableAt ?? null } : {}) })),
});

/**
 * The player's reads of a course, as the server answers them: its outline, and each lesson on its own route
 * (`GET <base>/outline`, `GET <base>/lessons/<id>`). `lesson` overrides how a lesson's route answers (a failure).
 */
export const playerRoutes = (
  base: string,
  course: LearnerCourseDetail,
  lesson: Record<string, () => Response | Promise<Response>> = {},
): Record<string, () => Response | Promise<Response>> => ({
  [`GET ${base}/outline`]: () => jsonResponse(200, outlineOf(course)),
  // The course's upcoming live sessions (issue 30): none unless a test says otherwise.
  [`GET /api/learner/sessions?courseId=${encodeURIComponent(course.courseId)}`]: () => jsonResponse(200, { items: [] }),
  ...Object.fromEntries(course.lessons.map((l) => [`GET ${base}/lessons/${l.id}`, lesson[l.id] ?? (() => jsonResponse(200, l))])),
  // Each lesson's discussion (issue 35 point 1): empty unless a test says otherwise.
  ...Object.fromEntries(
    course.lessons.map((l) => [`GET /api/courses/${encodeURIComponent(course.courseId)}/lessons/${encodeURIComponent(l.id)}/comments`, () => jsonResponse(200, { items: [], nextCursor: null })]),
  ),
});

import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import { learnerCourseDetail } from '#core/enrollments/learner-courses.ts';
import { clock, courseRepository, enrollmentRepository, licenseReader, quizAttemptRepository } from '#functions/composition/deps.ts';
import { playerBranding, publicProfileRepository } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/courses/{courseId}: a published course the caller is actively enrolled in (404 otherwise). */
export const handler = httpRoute({ route: 'learner-course' }, ({ auth, params }) =>
  learnerCourseDetail(
    { courses: courseRepository(), enrollments: enrollmentRepository(), licenses: licenseReader(), memberships: membershipRepository(), clock, profiles: publicProfileRepository(), branding: playerBranding, quizzes: quizAttemptRepository() },
    { learnerId: auth.userId, courseId: params['courseId']! }),
);

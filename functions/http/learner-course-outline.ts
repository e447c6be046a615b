import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import { learnerCourseOutline } from '#core/enrollments/learner-courses.ts';
import { clock, courseRepository, enrollmentRepository, licenseReader } from '#functions/composition/deps.ts';
import { playerBranding, publicProfileRepository } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/courses/{courseId}/outline: the course's lessons without their bodies (404 unless the caller may read it). */
export const handler = httpRoute({ route: 'learner-course-outline' }, ({ auth, params }) =>
  learnerCourseOutline(
    { courses: courseRepository(), enrollments: enrollmentRepository(), licenses: licenseReader(), memberships: membershipRepository(), clock, profiles: publicProfileRepository(), branding: playerBranding },
    { learnerId: auth.userId, courseId: params['courseId']! },
  ),
);

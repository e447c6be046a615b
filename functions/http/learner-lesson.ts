import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import { learnerLesson } from '#core/enrollments/learner-courses.ts';
import { clock, courseRepository, enrollmentRepository, licenseReader, quizAttemptRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/courses/{courseId}/lessons/{lessonId}: one lesson of a course the caller may read (404 otherwise). */
export const handler = httpRoute({ route: 'learner-lesson' }, ({ auth, params }) =>
  learnerLesson(
    { courses: courseRepository(), enrollments: enrollmentRepository(), licenses: licenseReader(), memberships: membershipRepository(), clock, quizzes: quizAttemptRepository() },
    { learnerId: auth.userId, courseId: params['courseId']!, lessonId: params['lessonId']! },
  ),
);

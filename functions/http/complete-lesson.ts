import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import { completeLessonBody } from '#contracts/courses.ts';
import { completeLesson } from '#core/enrollments/learner-courses.ts';
import { clock, courseRepository, enrollmentRepository, licenseReader } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/learner/courses/{courseId}/lessons/{lessonId}/complete: idempotent; answers the progress. */
export const handler = httpRoute({ route: 'complete-lesson', body: completeLessonBody }, ({ auth, params, body }) =>
  completeLesson(
    { courses: courseRepository(), enrollments: enrollmentRepository(), licenses: licenseReader(), memberships: membershipRepository(), clock },
    { learnerId: auth.userId, courseId: params['courseId']!, lessonId: params['lessonId']!, ...body },
  ),
);

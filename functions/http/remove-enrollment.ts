import { removeEnrollment } from '#core/enrollments/creator-enrollments.ts';
import { courseRepository, enrollmentRepository } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}/enrollments/{learnerId}: the learner loses access (204); their progress is kept. */
export const handler = httpRoute({ route: 'remove-enrollment' }, async ({ auth, params }): Promise<Reply> => {
  await removeEnrollment({ courses: courseRepository(), enrollments: enrollmentRepository() }, { creatorId: auth.userId, courseId: params['courseId']!, learnerId: params['learnerId']! });
  return new Reply(204, null);
});

import { removeEnrollmentByEmail } from '#core/enrollments/creator-enrollments.ts';
import { courseRepository, enrollmentRepository, userRepository } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /v1/courses/{courseId}/enrollments/{email}: the learner loses access (204); their progress is kept. */
export const handler = httpRoute({ route: 'v1-remove-enrollment' }, async ({ auth, params }): Promise<Reply> => {
  await removeEnrollmentByEmail(
    { courses: courseRepository(), enrollments: enrollmentRepository(), users: userRepository() },
    { creatorId: auth.userId, courseId: params['courseId']!, email: params['email']! },
  );
  return new Reply(204, null);
});

import { enrollBody } from '#contracts/courses.ts';
import { enrollLearner } from '#core/enrollments/creator-enrollments.ts';
import { enrollDeps } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/courses/{courseId}/enrollments: enrols a learner by email; a new email gets an account and an invitation (201). */
export const handler = httpRoute({ route: 'enroll-learner', body: enrollBody }, async ({ auth, params, body }): Promise<Reply> =>
  new Reply(201, await enrollLearner(enrollDeps(), { creatorId: auth.userId, courseId: params['courseId']!, email: body.email })),
);

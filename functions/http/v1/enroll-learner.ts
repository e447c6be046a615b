import { publicApiOperations } from '#contracts/public-api.ts';
import { enrollLearner } from '#core/enrollments/creator-enrollments.ts';
import { idempotent } from '#core/public-api/idempotency.ts';
import { clock, enrollDeps } from '#functions/composition/deps.ts';
import { idempotencyStore } from '#functions/composition/deps-api-keys.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

const operation = publicApiOperations['v1-enroll-learner'];

/**
 * POST /v1/courses/{courseId}/enrollments {email}: enrols as the dashboard does (invitation included), 201; with an
 * Idempotency-Key, a retry of the same request is answered as the first and enrols once (core/public-api/idempotency.ts).
 */
export const handler = httpRoute({ route: 'v1-enroll-learner', body: operation.body, headers: operation.headers }, async ({ auth, params, body, headers }) => {
  const courseId = params['courseId']!;
  const answer = await idempotent(
    { idempotency: idempotencyStore(), clock },
    { creatorId: auth.userId, key: headers['idempotency-key'], request: { route: 'v1-enroll-learner', courseId, body } },
    async () => ({ status: 201, body: await enrollLearner(enrollDeps(), { creatorId: auth.userId, courseId, email: body.email }) }),
  );
  return new Reply(answer.status, answer.body);
});

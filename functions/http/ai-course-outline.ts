import { courseOutlineBody, type CourseOutlineResponse } from '#contracts/ai.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { draftCourseOutline } from '#core/ai/drafting.ts';
import { draftingDeps } from '#functions/composition/deps-ai.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/ai/course-outline: a title, a description and lessons with a one-line summary, from a topic; charged, refunded on failure, the same Idempotency-Key charged once; nothing saved. */
export const handler = httpRoute({ route: 'ai-course-outline', body: courseOutlineBody, headers: idempotencyHeaders }, ({ auth, body, headers }): Promise<CourseOutlineResponse> =>
  draftCourseOutline(draftingDeps(), { userId: auth.userId, body, idempotencyKey: headers['idempotency-key'] }),
);

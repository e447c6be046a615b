import { lessonDraftBody, type LessonDraftResponse } from '#contracts/ai.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { draftLesson } from '#core/ai/drafting.ts';
import { draftingDeps } from '#functions/composition/deps-ai.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/ai/lesson-draft: a Markdown body for a lesson of the creator's course; charged, refunded on failure, the same Idempotency-Key charged once; nothing saved. */
export const handler = httpRoute({ route: 'ai-lesson-draft', body: lessonDraftBody, headers: idempotencyHeaders }, ({ auth, body, headers }): Promise<LessonDraftResponse> =>
  draftLesson(draftingDeps(), { userId: auth.userId, body, idempotencyKey: headers['idempotency-key'] }),
);

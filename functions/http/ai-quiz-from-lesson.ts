import { quizFromLessonBody, type QuizFromLessonResponse } from '#contracts/ai.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { draftQuizFromLesson } from '#core/ai/drafting.ts';
import { draftingDeps } from '#functions/composition/deps-ai.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/ai/quiz-from-lesson: a quiz valid for a quiz lesson as it is, from a text lesson; charged, refunded on failure, the same Idempotency-Key charged once; nothing saved. */
export const handler = httpRoute({ route: 'ai-quiz-from-lesson', body: quizFromLessonBody, headers: idempotencyHeaders }, ({ auth, body, headers }): Promise<QuizFromLessonResponse> =>
  draftQuizFromLesson(draftingDeps(), { userId: auth.userId, body, idempotencyKey: headers['idempotency-key'] }),
);

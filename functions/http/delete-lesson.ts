import type { Lesson } from '#contracts/courses.ts';
import { deleteLesson } from '#core/courses/lessons.ts';
import { fileDeps } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}/lessons/{lessonId}: answers the lesson as it was; its files go with it. */
export const handler = httpRoute({ route: 'delete-lesson' }, ({ auth, params }): Promise<Lesson> =>
  deleteLesson(fileDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', lessonId: params['lessonId'] ?? '' }),
);

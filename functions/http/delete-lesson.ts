import type { Lesson } from '#contracts/courses.ts';
import { deleteLesson } from '#core/courses/lessons.ts';
import { courseRemovalDeps } from '#functions/composition/course-jobs.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}/lessons/{lessonId}: answers the lesson as it was; its files go after it, by a 'course-changed' run. */
export const handler = httpRoute({ route: 'delete-lesson' }, ({ auth, params }): Promise<Lesson> =>
  deleteLesson(courseRemovalDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', lessonId: params['lessonId'] ?? '' }),
);

import type { Lesson } from '#contracts/courses.ts';
import { deleteLesson } from '#core/courses/lessons.ts';
import { clock, courseRepository } from '#functions/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}/lessons/{lessonId}: answers the lesson as it was. */
export const handler = httpRoute({ route: 'delete-lesson' }, ({ auth, params }): Promise<Lesson> =>
  deleteLesson({ courses: courseRepository(), clock }, { creatorId: auth.userId, courseId: params['courseId'] ?? '', lessonId: params['lessonId'] ?? '' }),
);

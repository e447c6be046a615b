import { type Course, reorderLessonsBody } from '#contracts/courses.ts';
import { reorderLessons } from '#core/courses/lessons.ts';
import { clock, courseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/courses/{courseId}/lessons/order: every lesson id once, in the new order; answers the course. */
export const handler = httpRoute({ route: 'reorder-lessons', body: reorderLessonsBody }, ({ auth, body, params }): Promise<Course> =>
  reorderLessons({ courses: courseRepository(), clock }, { creatorId: auth.userId, courseId: params['courseId'] ?? '', body }),
);

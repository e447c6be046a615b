import { createCourseBody } from '#contracts/courses.ts';
import { createCourse } from '#core/courses/courses.ts';
import { clock, courseRepository, ids } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/courses: 201 and the new draft course. */
export const handler = httpRoute({ route: 'create-course', body: createCourseBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await createCourse({ courses: courseRepository(), clock, ids }, { creatorId: auth.userId, body })),
);

import { sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import { createLessonBody } from '#contracts/courses.ts';
import { createLesson } from '#core/courses/lessons.ts';
import { courseChangeJobs } from '#functions/composition/course-jobs.ts';
import { clock, courseRepository, ids } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * POST /api/courses/{courseId}/lessons: 201 and the lesson, appended; a text body is sanitized on the way in. A drip
 * lesson starts the run that plans its notices for the course's learners.
 */
export const handler = httpRoute({ route: 'create-lesson', body: createLessonBody }, async ({ auth, body, params }): Promise<Reply> =>
  new Reply(201, await createLesson({ courses: courseRepository(), sanitize: sanitizeLessonHtml, clock, ids, jobs: courseChangeJobs() }, { creatorId: auth.userId, courseId: params['courseId'] ?? '', body })),
);

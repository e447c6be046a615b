import { sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import { type Lesson, updateLessonBody } from '#contracts/courses.ts';
import { updateLesson } from '#core/courses/lessons.ts';
import { courseChangeJobs } from '#functions/composition/course-jobs.ts';
import { fileDeps } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/**
 * PATCH /api/courses/{courseId}/lessons/{lessonId}: the lesson changed (a text body sanitized again; switching to text
 * or setting a videoUrl deletes the uploaded video); a changed release starts the run that plans the learners' drip
 * notices again.
 */
export const handler = httpRoute({ route: 'update-lesson', body: updateLessonBody }, ({ auth, body, params }): Promise<Lesson> =>
  updateLesson(
    { ...fileDeps(), sanitize: sanitizeLessonHtml, jobs: courseChangeJobs() },
    { creatorId: auth.userId, courseId: params['courseId'] ?? '', lessonId: params['lessonId'] ?? '', body },
  ),
);

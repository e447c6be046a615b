import { startSubmissionFileBody } from '#contracts/submissions.ts';
import { startSubmissionFile } from '#core/assignments/assignments.ts';
import { submissionFileDeps } from '#functions/composition/deps-assignments.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/learner/courses/{courseId}/lessons/{lessonId}/submission-files: 201 {file, url, expiresAt} (a presigned PUT). */
export const handler = httpRoute({ route: 'start-submission-file', body: startSubmissionFileBody }, async ({ auth, params, body }): Promise<Reply> =>
  new Reply(201, await startSubmissionFile(submissionFileDeps(), { learnerId: auth.userId, courseId: params['courseId']!, lessonId: params['lessonId']!, body })),
);

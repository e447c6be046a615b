import { createSubmissionBody } from '#contracts/submissions.ts';
import { submitAssignment } from '#core/assignments/assignments.ts';
import { submissionFileDeps } from '#functions/composition/deps-assignments.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/learner/courses/{courseId}/lessons/{lessonId}/submissions: 201 {id, status: 'submitted'}. */
export const handler = httpRoute({ route: 'submit-assignment', body: createSubmissionBody }, async ({ auth, params, body }): Promise<Reply> =>
  new Reply(201, await submitAssignment(submissionFileDeps(), { learnerId: auth.userId, courseId: params['courseId']!, lessonId: params['lessonId']!, body })),
);

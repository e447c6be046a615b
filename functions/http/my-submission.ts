import type { MySubmissionAnswer } from '#contracts/submissions.ts';
import { mySubmission } from '#core/assignments/assignments.ts';
import { assignmentDeps } from '#functions/composition/deps-assignments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/courses/{courseId}/lessons/{lessonId}/submissions: the learner's latest submission, with its grade. */
export const handler = httpRoute({ route: 'my-submission' }, ({ auth, params }): Promise<MySubmissionAnswer> =>
  mySubmission(assignmentDeps(), { learnerId: auth.userId, courseId: params['courseId']!, lessonId: params['lessonId']! }),
);

import { gradeSubmissionBody, type Submission } from '#contracts/submissions.ts';
import { gradeSubmission } from '#core/assignments/assignments.ts';
import { gradeDeps } from '#functions/composition/deps-assignments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/submissions/{submissionId}/grade: passed or needs revision with feedback; the learner is emailed; a pass completes the lesson. */
export const handler = httpRoute({ route: 'grade-assignment', body: gradeSubmissionBody }, ({ auth, params, body }): Promise<Submission> =>
  gradeSubmission(gradeDeps(), { creatorId: auth.userId, submissionId: params['submissionId']!, body }),
);

import { submissionsQuery, type SubmissionList } from '#contracts/submissions.ts';
import { listSubmissions } from '#core/assignments/assignments.ts';
import { assignmentDeps } from '#functions/composition/deps-assignments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/submissions?status=&cursor=: a page of the course's latest submissions of one status, oldest first. */
export const handler = httpRoute({ route: 'list-submissions', query: submissionsQuery }, ({ auth, params, query }): Promise<SubmissionList> =>
  listSubmissions(assignmentDeps(), { creatorId: auth.userId, courseId: params['courseId']!, status: query.status, cursor: query.cursor }),
);

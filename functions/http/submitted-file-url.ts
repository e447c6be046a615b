import type { FileUrlResponse } from '#contracts/files.ts';
import { submittedFileUrl } from '#core/assignments/assignments.ts';
import { submissionFileDeps } from '#functions/composition/deps-assignments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/submissions/{submissionId}/files/{fileId}/url: a short-lived download, for the course's creator or the learner who handed it in. */
export const handler = httpRoute({ route: 'submitted-file-url' }, ({ auth, params }): Promise<FileUrlResponse> =>
  submittedFileUrl(submissionFileDeps(), { userId: auth.userId, submissionId: params['submissionId'] ?? '', fileId: params['fileId'] ?? '' }),
);

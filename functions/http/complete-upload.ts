import { completeUploadBody, type CourseFile } from '#contracts/files.ts';
import { completeUpload } from '#core/files/uploads.ts';
import { uploadDeps } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/courses/{courseId}/files/{fileId}/complete: the file, ready (checked against what was declared). */
export const handler = httpRoute({ route: 'complete-upload', body: completeUploadBody }, ({ auth, body, params }): Promise<CourseFile> =>
  completeUpload(uploadDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', fileId: params['fileId'] ?? '', body }),
);

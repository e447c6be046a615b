import { startUploadBody } from '#contracts/files.ts';
import { startUpload } from '#core/files/uploads.ts';
import { uploadDeps, ids } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/courses/{courseId}/lessons/{lessonId}/files: 201, the file ('uploading') and how to cut it into parts. */
export const handler = httpRoute({ route: 'start-upload', body: startUploadBody }, async ({ auth, body, params }): Promise<Reply> =>
  new Reply(201, await startUpload({ ...uploadDeps(), ids }, { creatorId: auth.userId, courseId: params['courseId'] ?? '', lessonId: params['lessonId'] ?? '', body })),
);

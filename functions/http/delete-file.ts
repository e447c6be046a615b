import { deleteFile } from '#core/files/uploads.ts';
import { uploadDeps } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}/files/{fileId}: 204; an unfinished upload is aborted, the object and the item go. */
export const handler = httpRoute({ route: 'delete-file' }, async ({ auth, params }): Promise<Reply> => {
  await deleteFile(uploadDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', fileId: params['fileId'] ?? '' });
  return new Reply(204, null);
});

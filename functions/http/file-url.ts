import type { FileUrlResponse } from '#contracts/files.ts';
import { creatorFileUrl } from '#core/files/downloads.ts';
import { fileLinkDeps } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/files/{fileId}/url: a short-lived signed URL of the creator's ready file. */
export const handler = httpRoute({ route: 'file-url' }, ({ auth, params }): Promise<FileUrlResponse> =>
  creatorFileUrl(fileLinkDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', fileId: params['fileId'] ?? '' }),
);

import type { UploadedPartsResponse } from '#contracts/files.ts';
import { uploadedParts } from '#core/files/uploads.ts';
import { uploadDeps } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/files/{fileId}/parts: the parts S3 already holds (resume after a dropped connection). */
export const handler = httpRoute({ route: 'uploaded-parts' }, ({ auth, params }): Promise<UploadedPartsResponse> =>
  uploadedParts(uploadDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', fileId: params['fileId'] ?? '' }),
);

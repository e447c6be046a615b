import { type PartUrlsResponse, partUrlsBody } from '#contracts/files.ts';
import { partUrls } from '#core/files/uploads.ts';
import { fileLinkDeps } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/courses/{courseId}/files/{fileId}/parts: presigned PUT URLs for the asked parts, each part's size signed. */
export const handler = httpRoute({ route: 'upload-part-urls', body: partUrlsBody }, ({ auth, body, params }): Promise<PartUrlsResponse> =>
  partUrls(fileLinkDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', fileId: params['fileId'] ?? '', body }),
);

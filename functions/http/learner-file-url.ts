import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import type { FileUrlResponse } from '#contracts/files.ts';
import { learnerFileUrl } from '#core/files/downloads.ts';
import { enrollmentRepository, fileLinkDeps, licenseReader } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/courses/{courseId}/files/{fileId}/url: a short-lived signed URL, for a learner enrolled in the published course. */
export const handler = httpRoute({ route: 'learner-file-url' }, ({ auth, params }): Promise<FileUrlResponse> =>
  learnerFileUrl({ ...fileLinkDeps(), enrollments: enrollmentRepository(), licenses: licenseReader(), memberships: membershipRepository() }, { learnerId: auth.userId, courseId: params['courseId'] ?? '', fileId: params['fileId'] ?? '' }),
);

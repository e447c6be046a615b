import type { PersonalExportStatus } from '#contracts/personal-exports.ts';
import { personalExportStatus } from '#core/personal-exports/personal-exports.ts';
import { exportStatusDeps } from '#functions/composition/deps-personal-exports.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/me/exports/{exportId}: the caller's own export (anyone else's: 404), a ready one with a fresh link. */
export const handler = httpRoute({ route: 'personal-export-status' }, ({ auth, params }): Promise<PersonalExportStatus> =>
  personalExportStatus(exportStatusDeps(), auth.userId, params['exportId'] ?? ''),
);

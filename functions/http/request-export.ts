import { requestPersonalExport } from '#core/personal-exports/personal-exports.ts';
import { requestExportDeps } from '#functions/composition/deps-personal-exports.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/me/exports: 202 and the export being prepared (the one already pending, if any); the job emails the link. */
export const handler = httpRoute({ route: 'request-export' }, async ({ auth }): Promise<Reply> => new Reply(202, await requestPersonalExport(requestExportDeps(), auth.userId)));

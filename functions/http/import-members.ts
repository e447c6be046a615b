import { importMembersBody, type ImportMembersResult } from '#contracts/licenses.ts';
import { importMembers } from '#core/licenses/licenses.ts';
import { licenseDeps } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/leader/licenses/{licenseId}/seats/import: each email's seat or refusal; 403 PLAN_REQUIRED unless the licence's creator is on Pro. */
export const handler = httpRoute({ route: 'import-members', body: importMembersBody }, ({ auth, body, params }): Promise<ImportMembersResult> =>
  importMembers(licenseDeps(), { leaderId: auth.userId, licenseId: params['licenseId'] ?? '', emails: body.emails }),
);

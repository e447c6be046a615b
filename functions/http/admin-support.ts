import { adminSupportQuery, type AdminSupportList } from '#contracts/support.ts';
import { adminSupportInbox } from '#core/support/support.ts';
import { supportRepository } from '#functions/composition/deps-support.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/admin/support?status=open|closed&cursor=: the Support inbox, priority first, then oldest first. */
export const handler = httpRoute({ route: 'admin-support', query: adminSupportQuery }, ({ query }): Promise<AdminSupportList> => adminSupportInbox({ support: supportRepository() }, query));

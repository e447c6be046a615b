import { auditQuery, type AuditPage } from '#contracts/audit.ts';
import { listAudit } from '#core/admin/audit.ts';
import { auditLog } from '#functions/composition/deps-admin.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/admin/audit?action=&cursor=: the admin audit log, newest first, a page at a time, of every action or one. */
export const handler = httpRoute({ route: 'admin-audit', query: auditQuery }, ({ query }): Promise<AuditPage> => listAudit({ audit: auditLog() }, query));

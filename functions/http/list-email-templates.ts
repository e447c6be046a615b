import type { TemplateList } from '#contracts/campaigns.ts';
import { listTemplates } from '#core/campaigns/campaigns.ts';
import { campaignStoreDeps } from '#functions/composition/deps-campaigns.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/admin/email-templates: the built-in templates as last saved. */
export const handler = httpRoute({ route: 'list-email-templates' }, (): Promise<TemplateList> => listTemplates(campaignStoreDeps()));

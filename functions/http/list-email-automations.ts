import type { AutomationList } from '#contracts/campaigns.ts';
import { listAutomations } from '#core/campaigns/campaigns.ts';
import { campaignStoreDeps } from '#functions/composition/deps-campaigns.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/admin/email-automations: the emails the platform sends by itself, with their on/off state. */
export const handler = httpRoute({ route: 'list-email-automations' }, (): Promise<AutomationList> => listAutomations(campaignStoreDeps()));

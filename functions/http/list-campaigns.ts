import type { CampaignList } from '#contracts/campaigns.ts';
import { listCampaigns } from '#core/campaigns/campaigns.ts';
import { campaignStoreDeps } from '#functions/composition/deps-campaigns.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/admin/emails: the newest campaigns with their counts, and the platform's email totals. */
export const handler = httpRoute({ route: 'list-campaigns' }, (): Promise<CampaignList> => listCampaigns(campaignStoreDeps()));

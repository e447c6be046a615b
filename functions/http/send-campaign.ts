import { sendCampaignBody } from '#contracts/campaigns.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { queueCampaign } from '#core/campaigns/campaigns.ts';
import { campaignDeps } from '#functions/composition/deps-campaigns.ts';
import { adminActor } from '#middleware/admin-actor.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/admin/emails: 202 once the campaign is queued (and on the audit log); the campaign sender job, started at once, sends it (one per Idempotency-Key). */
export const handler = httpRoute({ route: 'send-campaign', body: sendCampaignBody, headers: idempotencyHeaders }, async ({ auth, body, headers, annotate }): Promise<Reply> =>
  new Reply(202, await queueCampaign(campaignDeps(annotate), body, headers['idempotency-key'], await adminActor(auth.userId))),
);

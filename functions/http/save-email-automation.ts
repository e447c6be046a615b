import { automationId, saveAutomationBody, type EmailAutomation } from '#contracts/campaigns.ts';
import { saveAutomation } from '#core/campaigns/campaigns.ts';
import { NotFoundError } from '#core/errors.ts';
import { campaignStoreDeps } from '#functions/composition/deps-campaigns.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/admin/email-automations/{automationId}: switches the automation on or off; an unknown one is 404. */
export const handler = httpRoute({ route: 'save-email-automation', body: saveAutomationBody }, ({ params, body }): Promise<EmailAutomation> => {
  const id = automationId.safeParse(params['automationId']);
  if (!id.success) throw new NotFoundError('No such email automation.');
  return saveAutomation(campaignStoreDeps(), id.data, body.enabled);
});

import { saveTemplateBody, templateId, type EmailTemplate } from '#contracts/campaigns.ts';
import { saveTemplate } from '#core/campaigns/campaigns.ts';
import { NotFoundError } from '#core/errors.ts';
import { campaignStoreDeps } from '#functions/composition/deps-campaigns.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/admin/email-templates/{templateId}: the template's new subject and content; an unknown template is 404. */
export const handler = httpRoute({ route: 'save-email-template', body: saveTemplateBody }, ({ params, body }): Promise<EmailTemplate> => {
  const id = templateId.safeParse(params['templateId']);
  if (!id.success) throw new NotFoundError('No such email template.');
  return saveTemplate(campaignStoreDeps(), id.data, body);
});

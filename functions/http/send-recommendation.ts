import { recommendationBody } from '#contracts/courses.ts';
import { sendRecommendation } from '#core/crm/learners.ts';
import { appOrigin, clock, crmRepository, ids, mailer, mailSchool, onBehalfDeps } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/crm/learners/{learnerId}/recommendations: 202 once SES took the mail; it is then on the learner's timeline. */
export const handler = httpRoute({ route: 'send-recommendation', body: recommendationBody }, async ({ auth, params, body }): Promise<Reply> => {
  const deps = { ...onBehalfDeps(), crm: crmRepository(), clock, ids, mailer: mailer(), appOrigin: appOrigin(), mailSchool };
  return new Reply(202, await sendRecommendation(deps, { creatorId: auth.userId, learnerId: params['learnerId'] ?? '', ...body }));
});

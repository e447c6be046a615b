import { publicApiOperations } from '#contracts/public-api.ts';
import { listCrmLearners } from '#core/crm/learners.ts';
import { clock, crmRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

const operation = publicApiOperations['v1-list-learners'];

/** GET /v1/learners?cursor=&courseId=: one page of the key's creator's learners, as the CRM lists them. */
export const handler = httpRoute({ route: 'v1-list-learners', query: operation.query }, ({ auth, query }) =>
  listCrmLearners({ crm: crmRepository(), clock }, { creatorId: auth.userId, ...query }),
);

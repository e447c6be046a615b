import { crmLearnersQuery, type CrmLearnerList } from '#contracts/courses.ts';
import { listCrmLearners } from '#core/crm/learners.ts';
import { clock, crmRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/crm/learners?cursor=&courseId=: one page of the creator's learners (one query + one batch read of notes). */
export const handler = httpRoute({ route: 'crm-learners', query: crmLearnersQuery }, ({ auth, query }): Promise<CrmLearnerList> =>
  listCrmLearners({ crm: crmRepository(), clock }, { creatorId: auth.userId, ...query }),
);

import type { CrmLearnerDetails } from '#contracts/courses.ts';
import { crmLearnerDetails } from '#core/crm/learners.ts';
import { clock, crmRepository, quizAttemptRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/crm/learners/{learnerId}: the details panel; 404 unless the learner is enrolled in one of the caller's courses. */
export const handler = httpRoute({ route: 'crm-learner' }, ({ auth, params }): Promise<CrmLearnerDetails> =>
  crmLearnerDetails({ crm: crmRepository(), clock, quizzes: quizAttemptRepository() }, { creatorId: auth.userId, learnerId: params['learnerId'] ?? '' }),
);

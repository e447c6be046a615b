import type { LearnerMembershipList } from '#contracts/memberships.ts';
import { learnerMemberships } from '#core/memberships/memberships.ts';
import { learnerMembershipsDeps } from '#functions/composition/deps-memberships.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/memberships: the memberships the learner holds now, for their dashboard's 'Manage membership'. */
export const handler = httpRoute({ route: 'learner-memberships' }, ({ auth }): Promise<LearnerMembershipList> => learnerMemberships(learnerMembershipsDeps(), auth.userId));

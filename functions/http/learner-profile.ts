import type { LearnerProfile } from '#contracts/certificates.ts';
import { learnerProfileOf } from '#core/certificates/learner-profile.ts';
import { learnerProfileRepository } from '#functions/composition/deps-certificates.ts';
import { userRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/profile: the learner's name on certificates. */
export const handler = httpRoute({ route: 'learner-profile' }, ({ auth }): Promise<LearnerProfile> =>
  learnerProfileOf({ learnerProfiles: learnerProfileRepository(), users: userRepository() }, auth.userId),
);

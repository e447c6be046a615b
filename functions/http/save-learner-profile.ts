import { learnerProfileBody, type LearnerProfile } from '#contracts/certificates.ts';
import { saveLearnerProfile } from '#core/certificates/learner-profile.ts';
import { learnerProfileRepository } from '#functions/composition/deps-certificates.ts';
import { clock, userRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/learner/profile: the name on certificates saved; the learner's certificates follow it (the issuing job). */
export const handler = httpRoute({ route: 'save-learner-profile', body: learnerProfileBody }, ({ auth, body }): Promise<LearnerProfile> =>
  saveLearnerProfile({ learnerProfiles: learnerProfileRepository(), users: userRepository(), clock }, { learnerId: auth.userId, body }),
);

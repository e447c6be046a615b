import type { LearnerProfile, LearnerProfileBody } from '#contracts/certificates.ts';
import type { LearnerProfileRepository, StoredLearnerProfile } from '#core/certificates/ports.ts';
import type { Clock, User, UserRepository } from '#core/ports.ts';

/**
 * The learner's profile: their "Name on certificates". A certificate is issued with the name given by then; saving a
 * different one marks their certificates for re-issue with it (the certificate job, within a minute).
 */

const view = (user: User | undefined, stored: StoredLearnerProfile | undefined): LearnerProfile => ({
  email: user?.email ?? '',
  certificateName: stored?.certificateName ?? '',
  certificatesUpdating: stored?.renaming ?? false,
  updatedAt: stored?.updatedAt ?? null,
});

type Deps = { learnerProfiles: Pick<LearnerProfileRepository, 'get'>; users: Pick<UserRepository, 'getUser'> };

/** GET /api/learner/profile */
export const learnerProfileOf = async (deps: Deps, learnerId: string): Promise<LearnerProfile> => {
  const [user, stored] = await Promise.all([deps.users.getUser(learnerId), deps.learnerProfiles.get(learnerId)]);
  return view(user, stored);
};

/** PUT /api/learner/profile: saved; a changed name sends the certificates for re-issue (an unchanged one does not). */
export const saveLearnerProfile = async (
  deps: Deps & { learnerProfiles: Pick<LearnerProfileRepository, 'save'>; clock: Clock },
  input: { learnerId: string; body: LearnerProfileBody },
): Promise<LearnerProfile> => {
  const [user, stored] = await Promise.all([deps.users.getUser(input.learnerId), deps.learnerProfiles.get(input.learnerId)]);
  const name = input.body.certificateName;
  const changed = name !== (stored?.certificateName ?? '');
  const saved = await deps.learnerProfiles.save({
    learnerId: input.learnerId,
    certificateName: name,
    updatedAt: deps.clock.now().toISOString(),
    // A save that does not change the name leaves a re-issue under way as it is.
    rename: changed || (stored?.renaming ?? false),
  });
  return view(user, saved);
};

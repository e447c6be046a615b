import type { LearnerProfileRepository, StoredLearnerProfile } from '#core/certificates/ports.ts';

/** Learners' profiles in memory, with functions/data/learner-profiles.ts's rules (a rename is cleared only at the version re-issued). */
export const memoryLearnerProfiles = (initial: StoredLearnerProfile[] = []) => {
  const stored = new Map<string, StoredLearnerProfile>(initial.map((p) => [p.learnerId, structuredClone(p)]));
  const repo: LearnerProfileRepository = {
    async get(learnerId) {
      const found = stored.get(learnerId);
      return found && structuredClone(found);
    },
    async save({ rename, ...profile }) {
      const saved = { ...profile, renaming: rename };
      stored.set(profile.learnerId, saved);
      return structuredClone(saved);
    },
    async renamesDue(limit) {
      return [...stored.values()]
        .filter((p) => p.renaming)
        .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt))
        .slice(0, limit)
        .map((p) => structuredClone(p));
    },
    async clearRename(learnerId, updatedAt) {
      const current = stored.get(learnerId);
      if (current?.updatedAt === updatedAt) stored.set(learnerId, { ...current, renaming: false });
    },
  };
  return Object.assign(repo, { stored });
};

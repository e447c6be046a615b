import type { BrandingRepository, StoredBranding } from '#core/ports.ts';

/** In-memory branding, one per creator, as functions/data/branding.ts keeps it. */
export const memoryBranding = (initial: StoredBranding[] = []) => {
  const stored = new Map(initial.map((b) => [b.creatorId, b]));
  const repo: BrandingRepository & { stored: typeof stored } = {
    stored,
    async get(creatorId) {
      return stored.get(creatorId);
    },
    async save(branding) {
      stored.set(branding.creatorId, branding);
    },
  };
  return repo;
};

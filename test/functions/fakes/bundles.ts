import type { BundleRepository, StoredBundle } from '#core/ports.ts';
import { withHooks } from './hooks.ts';

/** Bundles in memory, with the conditions of functions/data/bundles.ts (changed or deleted only by their creator). */
export const memoryBundles = () => {
  const bundles = new Map<string, StoredBundle>();
  const repo = withHooks<BundleRepository>({
    async get(bundleId) {
      const found = bundles.get(bundleId);
      return found && structuredClone(found);
    },
    async listByCreator(creatorId) {
      return structuredClone([...bundles.values()].filter((b) => b.creatorId === creatorId).sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`)));
    },
    async create(bundle) {
      if (bundles.has(bundle.id)) return false;
      bundles.set(bundle.id, structuredClone(bundle));
      return true;
    },
    async update(creatorId, bundleId, changes) {
      const found = bundles.get(bundleId);
      if (found?.creatorId !== creatorId) return undefined;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const saved = { ...found, ...defined };
      bundles.set(bundleId, saved);
      return structuredClone(saved);
    },
    async delete(creatorId, bundleId) {
      if (bundles.get(bundleId)?.creatorId !== creatorId) return false;
      return bundles.delete(bundleId);
    },
  });
  return Object.assign(repo, { stored: bundles });
};

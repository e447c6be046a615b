import type { ImageStore, PublicProfileRepository, StoredPublicProfile } from '#core/ports.ts';
import { copy, withHooks } from './hooks.ts';

/**
 * Public profiles with the conditions of functions/data/public-profiles.ts: a slug belongs to the creator holding it,
 * a save reserves the new slug, frees the old one and writes the profile together, and only while the profile is
 * still at the version the caller read.
 */
export const memoryPublicProfiles = (initial: StoredPublicProfile[] = []) => {
  const profiles = new Map<string, StoredPublicProfile>(initial.map((p) => [p.creatorId, copy(p)]));
  const slugs = new Map<string, string>(initial.map((p) => [p.slug, p.creatorId]));
  const repo = withHooks<PublicProfileRepository>({
    async get(creatorId) {
      const found = profiles.get(creatorId);
      return found && copy(found);
    },
    async getMany(creatorIds) {
      return copy([...new Set(creatorIds)].flatMap((id) => (profiles.has(id) ? [profiles.get(id)!] : [])));
    },
    async getBySlug(slug) {
      const owner = slugs.get(slug);
      return owner === undefined ? undefined : copy(profiles.get(owner));
    },
    async save({ profile, previous }) {
      const holder = slugs.get(profile.slug);
      if (holder !== undefined && holder !== profile.creatorId) return 'slug-taken';
      const stored = profiles.get(profile.creatorId);
      if (previous === undefined ? stored !== undefined : stored?.version !== previous.version) return 'changed';
      if (previous && previous.slug !== profile.slug && slugs.get(previous.slug) === profile.creatorId) slugs.delete(previous.slug);
      slugs.set(profile.slug, profile.creatorId);
      profiles.set(profile.creatorId, copy(profile));
      return 'saved';
    },
  });
  return Object.assign(repo, { slugs });
};

/**
 * The bucket's pictures: `put(key, size, contentType)` is the browser's PUT to an upload URL. URLs name what their
 * signature would cover, so a test can read it back.
 */
export const memoryImageStore = () => {
  const objects = new Map<string, { size: number; contentType: string }>();
  const store = withHooks<ImageStore>({
    async uploadUrl(key, { contentType, contentLength, ttlSeconds }) {
      return `https://files.test/${key}?put&type=${encodeURIComponent(contentType)}&length=${contentLength}&expires=${ttlSeconds}`;
    },
    async head(key) {
      const found = objects.get(key);
      return found && { ...found };
    },
    async viewUrl(key, { ttlSeconds, signedAt }) {
      return `https://files.test/${key}?signed=${signedAt.toISOString()}&expires=${ttlSeconds}`;
    },
    async delete(key) {
      objects.delete(key);
    },
  });
  return Object.assign(store, {
    put(key: string, size: number, contentType: string) {
      objects.set(key, { size, contentType });
    },
    keys: () => [...objects.keys()],
  });
};
